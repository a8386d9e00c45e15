// What Swift cannot import from glibc to hand back the pages of the program's and its libraries' read-only
// segments once a run's start is over (StreamLens's StartupPages). No other logic lives here.
#ifndef STREAMLENS_LOADED_CODE_H
#define STREAMLENS_LOADED_CODE_H

#include <stddef.h>

// Unmaps (MADV_DONTNEED) the resident pages of the read-only PT_LOAD segments (code, constants, unwind tables) of
// every ELF object loaded in this process: the program and each shared library, not the vDSO. Objects relocated in
// their text (DT_TEXTREL) are skipped: their text holds copied pages, which MADV_DONTNEED would throw away.
// Writable segments (data, and RELRO: relocated, then made read-only) are never touched. Runs inside
// dl_iterate_phdr, so no object can be unloaded (and its addresses reused) meanwhile. Returns the segments
// unmapped.
int slcode_release_read_only_segments(void);

#endif
