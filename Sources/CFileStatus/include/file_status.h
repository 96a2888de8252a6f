#ifndef DATASTORE_FILE_STATUS_H
#define DATASTORE_FILE_STATUS_H

#include <stdint.h>

/// A file's device, inode, size and number of names: what the stores compare to notice that a file was
/// replaced or grew. No timestamps.
typedef struct {
    uint64_t device;
    uint64_t inode;
    int64_t size;
    uint64_t links;
} datastore_file_status;

/// Fills `status` for the open `descriptor` (when `path` is NULL) or for `path`, asking the kernel for the
/// fields above only. Returns 0 on success, -1 with `errno` set on failure, and -2 where the system cannot
/// answer that way (not Linux, or a kernel or file system without `statx`): the caller uses `fstat` or
/// `stat` then.
///
/// Why not `stat`: since Linux 6.13, reading a file's timestamps marks them as seen, so that the next write
/// records a fine-grained modification time, which makes the inode's metadata dirty, and the `fdatasync`
/// after that write commits the file system's journal as well. A store that checks its journal's size
/// before each durable save paid about a third more per save for it.
int datastore_file_status_get(int descriptor, const char *path, datastore_file_status *status);

#endif
