/*
 * needed-path: make an executable name a shared library by its absolute
 * path, so the dynamic loader opens it directly instead of consulting
 * /etc/ld.so.cache (an open, fstat, mmap, close and munmap at every start,
 * and 40-odd KB read on a cold one).
 *
 * Usage: needed-path FILE NAME
 *
 * The linker cannot write a path into DT_NEEDED (it records the library's
 * soname), but it writes any string we like as the executable's own
 * DT_SONAME (-Wl,-soname,<path>). This tool points the DT_NEEDED entry
 * whose string is NAME at that string, and the symbol-version
 * requirements (DT_VERNEED) that name the same file, which the loader
 * matches by that name; then it drops the DT_SONAME entry. No
 * byte moves but those of the dynamic array; the file keeps its size and
 * layout. ELF64 in the machine's byte order only; anything else is an
 * error, and the build fails rather than ship a half-edited file.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file;

static void fail(const char *msg)
{
	fprintf(stderr, "needed-path: %s: %s\n", file, msg);
	exit(1);
}

/* The file offset of virtual address v, through the PT_LOAD segments. */
static size_t vaddr_to_offset(const Elf64_Phdr *ph, int n, Elf64_Addr v, size_t size)
{
	for (int i = 0; i < n; i++) {
		if (ph[i].p_type != PT_LOAD || v < ph[i].p_vaddr ||
		    v - ph[i].p_vaddr >= ph[i].p_filesz)
			continue;
		if (ph[i].p_offset + (v - ph[i].p_vaddr) >= size)
			break;
		return ph[i].p_offset + (v - ph[i].p_vaddr);
	}
	fail("address outside the file");
	return 0;
}

int main(int argc, char **argv)
{
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	Elf64_Dyn *dyn = NULL;
	size_t ndyn = 0, strtab = 0, strsz = 0, size;
	Elf64_Addr strtab_addr = 0, verneed_addr = 0;
	size_t verneed_num = 0;
	long soname = -1, needed = -1;
	struct stat st;
	unsigned char *map;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: needed-path FILE NAME\n");
		return 2;
	}
	file = argv[1];
	fd = open(file, O_RDWR);
	if (fd < 0 || fstat(fd, &st) < 0)
		fail(strerror(errno));
	size = st.st_size;
	if (size < sizeof(*eh))
		fail("not an ELF file");
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		fail(strerror(errno));
	eh = (const Elf64_Ehdr *)map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		fail("not an ELF64 file of this machine's byte order");
	if (eh->e_phentsize != sizeof(*ph) || eh->e_phoff > size ||
	    (size - eh->e_phoff) / sizeof(*ph) < eh->e_phnum)
		fail("bad program headers");
	ph = (const Elf64_Phdr *)(map + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC) {
			if (ph[i].p_offset > size || size - ph[i].p_offset < ph[i].p_filesz)
				fail("bad dynamic segment");
			dyn = (Elf64_Dyn *)(map + ph[i].p_offset);
			ndyn = ph[i].p_filesz / sizeof(*dyn);
		}
	if (!dyn)
		fail("no dynamic segment");
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_STRTAB)
			strtab_addr = dyn[i].d_un.d_ptr;
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = dyn[i].d_un.d_val;
		else if (dyn[i].d_tag == DT_SONAME)
			soname = i;
		else if (dyn[i].d_tag == DT_VERNEED)
			verneed_addr = dyn[i].d_un.d_ptr;
		else if (dyn[i].d_tag == DT_VERNEEDNUM)
			verneed_num = dyn[i].d_un.d_val;
	}
	if (!strtab_addr || !strsz)
		fail("no string table");
	strtab = vaddr_to_offset(ph, eh->e_phnum, strtab_addr, size);
	if (size - strtab < strsz || map[strtab + strsz - 1])
		fail("bad string table");
	if (soname < 0)
		fail("no DT_SONAME holding the path (link with -Wl,-soname,<path>)");
	if (dyn[soname].d_un.d_val >= strsz)
		fail("bad DT_SONAME");
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_NEEDED && dyn[i].d_un.d_val < strsz &&
		    !strcmp((const char *)map + strtab + dyn[i].d_un.d_val, argv[2]))
			needed = i;
	if (needed < 0)
		fail("no DT_NEEDED entry of that name");
	dyn[needed].d_un.d_val = dyn[soname].d_un.d_val;
	if (verneed_addr) {
		size_t off = vaddr_to_offset(ph, eh->e_phnum, verneed_addr, size);
		for (size_t n = 0; n < verneed_num; n++) {
			Elf64_Verneed *vn;
			if (off > size || size - off < sizeof(*vn))
				fail("bad version requirements");
			vn = (Elf64_Verneed *)(map + off);
			if (vn->vn_file < strsz &&
			    !strcmp((const char *)map + strtab + vn->vn_file, argv[2]))
				vn->vn_file = dyn[soname].d_un.d_val;
			if (!vn->vn_next)
				break;
			off += vn->vn_next;
		}
	}
	memmove(dyn + soname, dyn + soname + 1, (ndyn - soname - 1) * sizeof(*dyn));
	dyn[ndyn - 1].d_tag = DT_NULL;
	dyn[ndyn - 1].d_un.d_val = 0;
	if (msync(map, size, MS_SYNC) < 0 || munmap(map, size) < 0 || close(fd) < 0)
		fail(strerror(errno));
	return 0;
}
