#ifndef MSGC_CFILESYSTEM_H
#define MSGC_CFILESYSTEM_H

/// Atomically swaps the names `first` and `second` (renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL or ENOSYS where the file
/// system or kernel cannot exchange).
int msgc_exchange_paths(const char *first, const char *second);

#endif
