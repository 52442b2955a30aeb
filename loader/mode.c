// SPDX-License-Identifier: GPL-2.0
/*
 * mode.c - what this kernel lets idlescope see, in one line.
 *
 * The same BPF object runs on our patched guest kernel and on a
 * distribution kernel (Debian's), and sees less on the latter: without the
 * observation fields (kernel/patches 0004) no governor's prediction is
 * recorded, without the 2010 governors there is no menu2010 family to
 * measure, without trampolines (fentry/fexit) there are no select probes,
 * and without a cpuidle driver no governor runs at all.  All of that is
 * decided here, once, and printed as the "mode:" line.
 */
#include <stdbool.h>
#include <string.h>
#include "mode.h"

#define CPUIDLE_DRIVER	"/sys/devices/system/cpu/cpuidle/current_driver"

static bool has_member(const struct btf *btf, const char *type, const char *member)
{
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	if (id <= 0)
		return false;
	t = btf__type_by_id(btf, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

/* Programs that will be loaded and attach through a BPF trampoline. */
static int nr_trampolines(struct bpf_object *obj)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, obj) {
		enum bpf_attach_type type = bpf_program__expected_attach_type(prog);

		if (bpf_program__autoload(prog) &&
		    (type == BPF_TRACE_FENTRY || type == BPF_TRACE_FEXIT))
			n++;
	}
	return n;
}

void mode_print(FILE *out, const struct btf *vmlinux, struct bpf_object *obj)
{
	char driver[64] = "none";
	FILE *f = fopen(CPUIDLE_DRIVER, "r");
	int trampolines = nr_trampolines(obj);

	if (f) {
		if (fscanf(f, "%63s", driver) != 1)
			strcpy(driver, "none");
		fclose(f);
	}
	fprintf(out, "idlescope: mode: observation fields %s, 2010 governors %s, "
		"trampolines %s, cpuidle driver %s\n",
		has_member(vmlinux, "menu_device", "predicted_ns") ? "yes" : "no",
		btf__find_by_name_kind(vmlinux, "menu2010_device", BTF_KIND_STRUCT) > 0 ?
		"yes" : "no",
		trampolines ? "yes" : "no (tracepoints only)", driver);
}
