#!/usr/bin/env python3
# build-aux/field-docs.py: the field tables of docs/scenario-format.md, made
# from the files of src/core/fields/, where each field is documented on
# the line above its FIELD with a comment that starts "/**" and holds the
# cells of its row after the key: "type | allowed | default | meaning".
#
# Usage: build-aux/field-docs.py [--check] [TOP]
#   (no flag)  rewrites the rows between each table's markers
#   --check    exits 1, naming the tables, when the document is not what the
#              files make, or when a FIELD has no row (a test runs this)
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import sys

START = re.compile(r'^<!-- rows made from src/core/fields/(\w+)\.def by build-aux/field-docs\.py -->$')
END = '<!-- end of the rows -->'
ENTRY = re.compile(r'^(FIELD|MEMBER) \(\w+, (\w+)|^IGNORED \("(\w+)"\)')


def rows(path):
    """The table rows of one .def file, and the FIELDs without one."""
    out, undocumented, doc, comment = [], [], None, None
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if comment is not None:
            comment.append(line)
            if '*/' in line:
                if comment[0].startswith('/**'):
                    doc = comment
                comment = None
            continue
        if line.startswith('/*'):
            comment = [line]
            if '*/' in line:
                if line.startswith('/**'):
                    doc = comment
                comment = None
            continue
        m = ENTRY.match(line)
        if not m:
            continue
        key = m.group(2) or m.group(3)
        if doc is None:
            if m.group(1) == 'FIELD':
                undocumented.append(key)
        else:
            text = []
            for part in doc:
                part = part.strip()
                part = part[3:] if part.startswith('/**') else part
                part = part[1:] if part.startswith('*') and not part.startswith('*/') else part
                text.append(part.replace('*/', '').strip())
            out.append('| `%s` | %s |' % (key, ' '.join(t for t in text if t)))
        doc = None
    return out, undocumented


def main(argv):
    check = '--check' in argv
    args = [a for a in argv if a != '--check']
    top = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    doc_path = os.path.join(top, 'docs', 'scenario-format.md')
    lines = open(doc_path, encoding='utf-8').read().split('\n')
    made, problems, i = [], [], 0
    while i < len(lines):
        m = START.match(lines[i])
        made.append(lines[i])
        i += 1
        if not m:
            continue
        section = m.group(1)
        table, undocumented = rows(os.path.join(top, 'src', 'core', 'fields', section + '.def'))
        if undocumented:
            problems.append('src/core/fields/%s.def: no /** row */ above %s'
                            % (section, ', '.join(undocumented)))
        made.extend(lines[i:i + 2])          # the table's header and its rule
        i += 2
        old = []
        while i < len(lines) and lines[i] != END:
            old.append(lines[i])
            i += 1
        if old != table:
            problems.append('docs/scenario-format.md: the rows of %s.def are not what the file says'
                            % section)
        made.extend(table)
    if check:
        for p in problems:
            print(p)
        if any('not what the file says' in p for p in problems):
            print('run build-aux/field-docs.py to make them again')
        return 1 if problems else 0
    with open(doc_path + '.tmp', 'w', encoding='utf-8') as f:
        f.write('\n'.join(made))
    os.replace(doc_path + '.tmp', doc_path)
    for p in problems:
        if 'no /** row' in p:
            print(p)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
