#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) this
/// process has made since it started, on glibc; always 0 elsewhere (the counter is not installed).
uint64_t allocation_count(void);

/// Whether the counter is installed (glibc, where the executable's allocation functions replace libc's).
int allocation_counter_installed(void);

#endif
