// Debian's libxml2 headers pull in the system ICU headers when LIBXML_ICU_ENABLED is set,
// which clash with the ICU module Foundation brings (_FoundationICU). msgc never uses
// libxml2's ICU-backed encoding support, so switch it off before the other headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
