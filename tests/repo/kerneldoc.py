#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every function a loader header exports has a kernel-doc block.

usage: tests/repo/kerneldoc.py LOADER_DIR

A function a header exports is a prototype at file scope that is not
static, or a static inline defined in the header (other files call it).
Each needs, directly above it, a block in the kernel's format:

    /**
     * name() - what it does
     * @param: ... (one line per named parameter)
     *
     * What callers must know.
     *
     * Return: ... (unless it returns void)
     */

Prints one line per miss, "kerneldoc: FILE:LINE: NAME(): WHAT", then a
count line; exits 1 when there is any miss, 2 on unreadable input.
A function declared twice (the two arms of an #if) is documented once,
above the first.
"""
import os
import re
import sys

IDENT = re.compile(r'[A-Za-z_]\w*')
ATTRIBUTE = re.compile(r'__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)')
# An X-macro expanded at file scope ends with no ';' of its own: the
# declaration after it starts after it.
X_MACRO = re.compile(r'\s*(?:[A-Z][A-Z0-9_]*\s*\([^()]*\)\s*)*')
KEYWORDS = {'void', 'int', 'char', 'short', 'long', 'unsigned', 'signed',
            'const', 'volatile', 'struct', 'union', 'enum', 'double',
            'float', 'bool', 'restrict', '__restrict'}


def die(msg):
    print(f'kerneldoc.py: {msg}', file=sys.stderr)
    sys.exit(2)


def strip_code(text):
    """@text with comments, strings and characters blanked (newlines kept),
    so that offsets and line numbers still match the file."""
    out = []
    i, n = 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if two == '/*':
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
        elif two == '//':
            end = text.find('\n', i)
            end = n if end < 0 else end
            out.append(' ' * (end - i))
            i = end
        elif text[i] in '"\'':
            quote, j = text[i], i + 1
            while j < n and text[j] != quote:
                j += 2 if text[j] == '\\' else 1
            out.append(' ' * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def blank_preprocessor(code):
    """Preprocessor lines (with their continuations) blanked."""
    lines = code.split('\n')
    inside = False
    for k, line in enumerate(lines):
        if inside or line.lstrip().startswith('#'):
            inside = line.rstrip().endswith('\\')
            lines[k] = ' ' * len(line)
    return '\n'.join(lines)


def declarations(code):
    """(start offset, text before the body or ';', has a body) of each
    file-scope declaration of @code."""
    depth, start, i = 0, None, 0
    while i < len(code):
        c = code[i]
        if start is None and not c.isspace() and depth == 0:
            start = i
        if c == '{':
            if depth == 0 and start is not None:
                head = code[start:i]
                if head.rstrip().endswith(')') and '=' not in head:
                    # a function's body: skip it whole, it ends the declaration
                    depth_body, j = 1, i + 1
                    while j < len(code) and depth_body:
                        depth_body += {'{': 1, '}': -1}.get(code[j], 0)
                        j += 1
                    yield start, head, True
                    start, i = None, j
                    continue
            depth += 1
        elif c == '}':
            depth -= 1
        elif c == ';' and depth == 0:
            if start is not None:
                yield start, code[start:i], False
            start = None
        i += 1


def function_of(head, has_body):
    """(name, parameter names, returns a value) when @head declares an
    exported function, else None."""
    text = ' '.join(ATTRIBUTE.sub(' ', head).split())
    text = text[X_MACRO.match(text).end():]
    words = text.split()
    if not words or words[0] in ('typedef', 'extern') and '(' not in text:
        return None
    if re.match(r'(typedef|_Static_assert|static_assert)\b', text):
        return None
    static = 'static' in words[:3]
    if static and not (has_body and 'inline' in words[:3]):
        return None
    m = re.match(r'(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)\s*$', text, re.S)
    if not m or '(' in m.group(1) or '=' in text:
        return None
    ret, name, params = m.groups()
    names = []
    for param in split_params(params):
        if param == '...':
            names.append('...')
            continue
        fp = re.search(r'\(\s*\*\s*([A-Za-z_]\w*)\s*\)', param)
        if fp:
            names.append(fp.group(1))
            continue
        idents = [w for w in IDENT.findall(re.sub(r'\[.*?\]', '', param))]
        if idents and idents[-1] not in KEYWORDS and len(idents) > 1:
            names.append(idents[-1])
    returns = re.sub(r'\b(static|inline|extern)\b', '', ret).split() != ['void']
    return name, names, returns


def split_params(params):
    parts, depth, cur = [], 0, ''
    for c in params:
        if c == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
            continue
        depth += {'(': 1, ')': -1, '[': 1, ']': -1}.get(c, 0)
        cur += c
    if cur.strip() and cur.strip() != 'void':
        parts.append(cur.strip())
    return parts


def block_above(lines, first):
    """The lines of the /** */ block that ends on the line above line
    @first (0-based), or None."""
    k = first - 1
    if k < 0 or not lines[k].strip().endswith('*/'):
        return None
    while k >= 0 and '/*' not in lines[k]:
        k -= 1
    if k < 0 or not lines[k].lstrip().startswith('/**'):
        return None
    return lines[k:first]


def misses(name, params, returns, block):
    if block is None:
        return ['no kernel-doc block directly above']
    text = '\n'.join(re.sub(r'^\s*(/\*\*|\*/|\*)? ?', '', line) for line in block)
    found = []
    if not re.search(r'^\s*' + re.escape(name) + r'\(\) - \S', text, re.M):
        found.append(f'the block does not open with "{name}() - summary"')
    for param in params:
        if not re.search(r'^\s*@' + re.escape(param) + r':', text, re.M):
            found.append(f'no @{param}: line')
    if returns and not re.search(r'^\s*Return:', text, re.M):
        found.append('no Return: section')
    return found


def check_header(path, shown):
    try:
        text = open(path, encoding='utf-8').read()
    except OSError as e:
        die(f'{path}: {e.strerror}')
    lines = text.split('\n')
    code = blank_preprocessor(strip_code(text))
    nr_functions, bad, seen = 0, [], set()
    for start, head, has_body in declarations(code):
        fn = function_of(head, has_body)
        if not fn:
            continue
        name, params, returns = fn
        if name in seen:
            continue	# the same function in the other arm of an #if
        seen.add(name)
        nr_functions += 1
        macro = X_MACRO.match(head)
        if macro:
            start += macro.end()
        first = code.count('\n', 0, start)
        for what in misses(name, params, returns, block_above(lines, first)):
            bad.append(f'kerneldoc: {shown}:{first + 1}: {name}(): {what}')
    return nr_functions, bad


def main():
    if len(sys.argv) != 2:
        die('usage: kerneldoc.py LOADER_DIR')
    top = sys.argv[1]
    if not os.path.isdir(top):
        die(f'{top}: not a directory')
    headers = sorted(os.path.relpath(os.path.join(d, f), top)
                     for d, _, files in os.walk(top) for f in files
                     if f.endswith('.h'))
    nr_functions, nr_bad_headers, nr_bad = 0, 0, 0
    for header in headers:
        nr, bad = check_header(os.path.join(top, header), header)
        nr_functions += nr
        nr_bad += len(bad)
        nr_bad_headers += bool(bad)
        for line in bad:
            print(line)
    print(f'{len(headers)} headers, {nr_functions} exported functions, '
          f'{nr_bad} misses in {nr_bad_headers} headers')
    sys.exit(1 if nr_bad else 0)


if __name__ == '__main__':
    main()
