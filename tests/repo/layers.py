#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The loader's includes against its written layer order (docs/layers.md).

usage: tests/repo/layers.py LAYERS_MD LOADER_DIR

Prints one line per break, "layers: FILE includes HEADER: REASON", and
one per circle, "circle: UNIT -> UNIT -> ... -> UNIT", then a count line;
exits 1 when there is any, 2 on unreadable input.  A folder is the first
component of a file's path under LOADER_DIR; a file at the top is a
folder of its own, named without its extension.  A unit is a .c and the
.h of the same name, or a private header's owner (the ```private block).
"""
import os
import re
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def die(msg):
    print(f'layers.py: {msg}', file=sys.stderr)
    sys.exit(2)


def read_tables(path):
    """The ```layers block as {folder: layer}, ```private as {header: unit}."""
    try:
        text = open(path, encoding='utf-8').read()
    except OSError as e:
        die(f'{path}: {e.strerror}')
    blocks = dict(re.findall(r'^```(layers|private)\n(.*?)^```', text, re.M | re.S))
    if 'layers' not in blocks:
        die(f'{path}: no ```layers block')
    layer_of = {}
    for line in blocks['layers'].splitlines():
        words = line.split()
        if not words or not words[0].isdigit():
            die(f'{path}: a layers line is "N FOLDER...", not "{line}"')
        for folder in words[1:]:
            if folder in layer_of:
                die(f'{path}: {folder} is in two layers')
            layer_of[folder] = int(words[0])
    private = dict(line.split() for line in blocks.get('private', '').splitlines()
                   if line.strip())
    return layer_of, private


def sources(root):
    files = []
    for d, _, names in os.walk(root):
        files += [os.path.relpath(os.path.join(d, n), root)
                  for n in names if n.endswith(('.c', '.h'))]
    return sorted(files)


def folder(path):
    return path.split('/')[0] if '/' in path else path.rsplit('.', 1)[0]


def includes(root, path, files):
    """The loader headers @path includes (paths under root)."""
    out = []
    with open(os.path.join(root, path), encoding='utf-8') as f:
        for line in f:
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(1)
            local = os.path.normpath(os.path.join(os.path.dirname(path), name))
            for cand in (name, local):
                if cand in files:
                    out.append(cand)
                    break
    return out


def circles(graph):
    """Strongly connected components of more than one unit (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    if len(sys.argv) != 3:
        die('usage: layers.py LAYERS_MD LOADER_DIR')
    layer_of, private = read_tables(sys.argv[1])
    root = sys.argv[2]
    if not os.path.isdir(root):
        die(f'{root}: not a directory')
    files = sources(root)
    breaks = 0
    graph = {}

    def unit(path):
        return private.get(path, path.rsplit('.', 1)[0])

    for path in files:
        mine = folder(path)
        if mine not in layer_of:
            print(f'layers: {path}: folder {mine} is in no layer')
            breaks += 1
            continue
        for header in includes(root, path, files):
            theirs = folder(header)
            if unit(header) != unit(path):
                graph.setdefault(unit(path), set()).add(unit(header))
            if theirs == mine or theirs not in layer_of:
                continue
            if layer_of[theirs] >= layer_of[mine]:
                how = 'not below' if layer_of[theirs] == layer_of[mine] else 'above'
                print(f'layers: {path} includes {header}: {theirs} (layer '
                      f'{layer_of[theirs]}) is {how} {mine} ({layer_of[mine]})')
                breaks += 1
    found = circles(graph)
    for comp in found:
        print('circle: ' + ' <-> '.join(comp))
    print(f'{len(files)} files, {breaks} includes against the order, {len(found)} circles')
    sys.exit(1 if breaks or found else 0)


if __name__ == '__main__':
    main()
