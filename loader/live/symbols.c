// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c - names from /proc/kallsyms and /proc/interrupts (see
 * live/symbols.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "live/symbols.h"
#include "stats/wakeup.h"

/* The text symbol at exactly @addr: a timer's function is its start. */
static int function_name(__u64 addr, char *name, size_t size)
{
	char line[512], sym[256], type;
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 || a != addr ||
		    (type != 't' && type != 'T'))
			continue;
		snprintf(name, size, "%s", sym);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/*
 * "  4:   0   17   IO-APIC   4-edge      ttyS0": the handlers' names come
 * after the counts, the chip and the "HWIRQ-TYPE" field.
 */
static int irq_name(__u64 irq, char *name, size_t size)
{
	char line[1024], *tok, *save, *rest = NULL;
	FILE *f = fopen("/proc/interrupts", "r");
	char *end;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		tok = strtok_r(line, " ", &save);
		if (!tok || strtoull(tok, &end, 10) != irq || strcmp(end, ":"))
			continue;
		while ((tok = strtok_r(NULL, " ", &save))) {
			if (strstr(tok, "-edge") || strstr(tok, "-level") ||
			    strstr(tok, "-fasteoi")) {
				rest = save;
				break;
			}
		}
		if (rest) {
			rest += strspn(rest, " ");
			snprintf(name, size, "%s", rest);
			ret = *rest ? 0 : -ENOENT;
		}
		break;
	}
	fclose(f);
	return ret;
}

int symbols_resolve(void *ctx, __u32 kind, __u64 value, char *name, size_t size)
{
	switch (kind) {
	case WAKE_NAME_FUNCTION:
		return function_name(value, name, size);
	case WAKE_NAME_IRQ:
		return irq_name(value, name, size);
	default:
		return -ENOENT;
	}
}
