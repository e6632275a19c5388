#include <openssl/sha.h>
#include <openssl/evp.h>
