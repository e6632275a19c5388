#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "CFileSystem.h"

int msgc_exchange_paths(const char *first, const char *second) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#else
    (void)first;
    (void)second;
    errno = ENOSYS;
    return -1;
#endif
}

int msgc_sync_file_system(const char *path) {
    int descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (descriptor < 0) {
        return -1;
    }
#if defined(__linux__)
    int result = syncfs(descriptor);
#else
    sync();
    int result = 0;
#endif
    int saved = errno;
    close(descriptor);
    errno = saved;
    return result;
}
