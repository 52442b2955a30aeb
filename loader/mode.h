/* SPDX-License-Identifier: GPL-2.0 */
#ifndef IDLESCOPE_MODE_H
#define IDLESCOPE_MODE_H

#include <stdio.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

void mode_print(FILE *out, const struct btf *vmlinux, struct bpf_object *obj);

#endif
