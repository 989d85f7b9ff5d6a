#!/usr/bin/env python3
# check-marked.py: every message an error carries is marked for translation.
#
# po-complete checks that what is marked is translated; this checks that
# what the window and headroom-cli show when something is wrong is marked
# at all: the format of every FAIL (), hr_error_set_field () and
# g_set_error () in the core, the readers and the renderer, when it has
# words in it, is written _("..."), so that a check added without it fails
# here instead of showing English in a Kyrgyz or Russian window.  The
# measured runs (hr-measured*.c) are left out: they are the project's own
# data, read by headroom-cli --validate, not what a user writes.
import os
import re
import sys

# The argument that is the format: FAIL (path or code, format, ...).
FORMAT_ARG = {'FAIL': 1, 'g_set_error': 3, 'hr_error_set_field': 3}


def arguments(src, i):
    """The (start, end) of each argument of the call whose '(' is at i."""
    depth, j, start, args = 0, i, i + 1, []
    while j < len(src):
        c = src[j]
        if c in '"\'':
            j += 1
            while src[j] != c:
                j += 2 if src[j] == '\\' else 1
        elif src.startswith('/*', j):
            j = src.index('*/', j) + 1
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                args.append((start, j))
                return args
        elif c == ',' and depth == 1:
            args.append((start, j))
            start = j + 1
        j += 1
    return args


def has_words(text):
    literals = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
    return re.search(r'[A-Za-z]{3,}', re.sub(r'%[-+ #0-9.]*[a-zA-Z]+', '', literals)) is not None


def main(root):
    problems = 0
    for top in ('src/core', 'src/io', 'src/render'):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith('.c') or name.startswith('hr-measured'):
                    continue
                path = os.path.join(folder, name)
                src = open(path, encoding='utf-8').read()
                for m in re.finditer(r'\b(FAIL|g_set_error|hr_error_set_field)\s*\(', src):
                    if re.search(r'#\s*define\s+$', src[max(0, m.start() - 16):m.start()]):
                        continue
                    args = arguments(src, m.end() - 1)
                    index = FORMAT_ARG[m.group(1)]
                    if index >= len(args):
                        continue
                    text = src[args[index][0]:args[index][1]].strip()
                    if text.startswith('"') and has_words(text):
                        line = src.count('\n', 0, m.start()) + 1
                        print(f'{os.path.relpath(path, root)}:{line}: {m.group(1)} with an '
                              f'unmarked message: {text[:70]}')
                        problems += 1
    if problems:
        print(f'{problems} messages not marked: write their formats _("...") and translate '
              'them in po/ky.po and po/ru.po')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
