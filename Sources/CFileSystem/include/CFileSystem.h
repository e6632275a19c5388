#ifndef MSGC_CFILESYSTEM_H
#define MSGC_CFILESYSTEM_H

/// Atomically swaps the names `first` and `second` (renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL or ENOSYS where the file
/// system or kernel cannot exchange).
int msgc_exchange_paths(const char *first, const char *second);

/// Writes everything cached for the file system that holds the folder `path` to its device
/// (syncfs), and reports a write-back error that happened since (Linux 5.8+).
/// Returns 0 on success, -1 with errno set otherwise.
int msgc_sync_file_system(const char *path);

#endif
