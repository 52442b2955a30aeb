#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every function a loader header exports has a kernel-doc block directly
# above it, naming it and each of its parameters, with a Return: section
# unless it returns void (tests/repo/kerneldoc.py).  And the check can
# fail: on a copy of the loader with one block removed, one parameter line
# removed and one Return: removed, it names each by file:line and exits 1;
# what a header does not export (static helpers, typedefs, an X-macro's
# expansion, a static assertion) is not asked for; a missing directory is
# one line of error and exit 2.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 6

kerneldoc=$top/tests/repo/kerneldoc.py
# says LINE: the last checker output holds LINE, whole.
says() { echo "$out" | grep -qxF -- "$1"; }
# missed LINE: the checker failed (1) and said LINE.
missed() { [ $rc = 1 ] && says "$1"; }
# line_of FILE TEXT: the number of FILE's first line holding TEXT.
line_of() { grep -nF -m1 -- "$2" "$1" | cut -d: -f1; }

out=$("$kerneldoc" "$top/loader" 2>&1)
rc=$?
check -m "status $rc: $(echo "$out" | tr '\n' ' ')" \
	"kerneldoc: every function a loader header exports has its kernel-doc" \
	eval '[ $rc = 0 ] && echo "$out" | tail -n 1 | grep -q " exported functions, 0 misses in 0 headers$"'

cp -a "$top/loader" "$tmp/loader"
# recfile_open()'s whole block gone.
perl -0pi -e 's{/\*\*\n(?: \*.*\n)*? \*/\n(int recfile_open\()}{$1}' "$tmp/loader/recfile.h"
# tag_command() without its @argv: line.
sed -i '/^ \* @argv: /d' "$tmp/loader/cmd/tag.h"
# holm_reject() without its Return: section.
perl -0pi -e 's{ \*\n \* Return: how many rows it flags\.\n}{}' "$tmp/loader/stats/holm.h"
out=$("$kerneldoc" "$tmp/loader" 2>&1)
rc=$?
check -m "status $rc: $(echo "$out" | tr '\n' ' ')" \
	"kerneldoc: a function without a block is named by file:line, exit 1" \
	missed "kerneldoc: recfile.h:$(line_of "$tmp/loader/recfile.h" 'int recfile_open('): recfile_open(): no kernel-doc block directly above"
check -m "$(echo "$out" | tr '\n' ' ')" "kerneldoc: a parameter without its line is named" \
	says "kerneldoc: cmd/tag.h:$(line_of "$tmp/loader/cmd/tag.h" 'int tag_command('): tag_command(): no @argv: line"
check -m "$(echo "$out" | tr '\n' ' ')" "kerneldoc: a value returned without Return: is named" \
	says "kerneldoc: stats/holm.h:$(line_of "$tmp/loader/stats/holm.h" 'int holm_reject('): holm_reject(): no Return: section"

# What is not exported is not asked for; the one export here is documented.
mkdir "$tmp/other"
cat >"$tmp/other/x.h" <<'EOF'
#define X_LIST(X) X(a) X(b)
#define X_DECLARE(name) int name##_count(void);
typedef int x_fn(int value);
struct x { int (*fn)(int value); };
static int x_helper(int value);
X_LIST(X_DECLARE)
_Static_assert(sizeof(int) >= 4, "int");
extern const char *const x_names[2];
/**
 * x_sum() - the sum of two values
 * @a: one
 * @b: the other
 * @...: more
 *
 * Return: @a + @b.
 */
static inline int x_sum(int a, int b, ...)
{
	return a + b;
}
EOF
out=$("$kerneldoc" "$tmp/other" 2>&1)
rc=$?
check -m "status $rc: $(echo "$out" | tr '\n' ' ')" \
	"kerneldoc: static helpers, typedefs, X-macros and declarations of data are not asked for" \
	eval '[ $rc = 0 ] && says "1 headers, 1 exported functions, 0 misses in 0 headers"'

error_status=2 check_error "kerneldoc: a missing directory is one line of error" \
	"^kerneldoc.py: $tmp/none: not a directory$" "$kerneldoc" "$tmp/none"
