#define _GNU_SOURCE
#include "file_status.h"

#include <errno.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#endif

int datastore_file_status_get(int descriptor, const char *path, datastore_file_status *status) {
#if defined(__linux__) && defined(STATX_INO) && defined(AT_EMPTY_PATH)
    const unsigned int wanted = STATX_INO | STATX_SIZE | STATX_NLINK;
    struct statx info;
    int result;
    do {
        result = path ? statx(AT_FDCWD, path, 0, wanted, &info)
                      : statx(descriptor, "", AT_EMPTY_PATH, wanted, &info);
    } while (result != 0 && errno == EINTR);
    if (result != 0) {
        // No `statx` (an old kernel, or a sandbox that filters it): the caller falls back on `stat`.
        return (errno == ENOSYS || errno == EPERM) ? -2 : -1;
    }
    if ((info.stx_mask & wanted) != wanted) {
        return -2;
    }
    status->device = (uint64_t)makedev(info.stx_dev_major, info.stx_dev_minor);
    status->inode = info.stx_ino;
    status->size = (int64_t)info.stx_size;
    status->links = info.stx_nlink;
    return 0;
#else
    (void)descriptor;
    (void)path;
    (void)status;
    return -2;
#endif
}
