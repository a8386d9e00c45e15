#define _GNU_SOURCE
#include "loaded_code.h"

#include <elf.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

// Whether the object's dynamic section asks for text relocations.
static int has_text_relocations(const struct dl_phdr_info *info) {
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr);
             entry->d_tag != DT_NULL; ++entry) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static int release_object(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    int *released = context;
    const ElfW(Addr) vdso = (ElfW(Addr))getauxval(AT_SYSINFO_EHDR);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        // The vDSO is the kernel's, mapped specially: nothing to hand back.
        if (info->dlpi_phdr[i].p_type == PT_LOAD && vdso != 0 && info->dlpi_addr + info->dlpi_phdr[i].p_vaddr == vdso)
            return 0;
    }
    if (has_text_relocations(info)) return 0;
    const ElfW(Addr) page = (ElfW(Addr))sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W) || header->p_memsz == 0) continue;
        // The loader maps each segment from its first to its last page; no other mapping shares those pages.
        const ElfW(Addr) start = (info->dlpi_addr + header->p_vaddr) & ~(page - 1);
        const ElfW(Addr) end = (info->dlpi_addr + header->p_vaddr + header->p_memsz + page - 1) & ~(page - 1);
        if (madvise((void *)start, end - start, MADV_DONTNEED) == 0) *released += 1;
    }
    return 0;
}

int slcode_release_read_only_segments(void) {
    int released = 0;
    dl_iterate_phdr(release_object, &released);
    return released;
}
