#!/usr/bin/env python3
# build-aux/field-docs.py: the field tables of docs/scenario-format.md, made
# from the files of src/core/fields/, where each field is documented on
# the line above its FIELD with a comment that starts "/**" and holds the
# cells of its row after the key: "type | allowed | default | meaning".
# "{names}" in a row stands for the names the field takes, as
# `headroom-cli --list fields` gives them: a new optimizer, precision or
# other choice is listed without a word here.
#
# Usage: build-aux/field-docs.py [--check] [--cli HEADROOM-CLI] [TOP]
#   (no flag)  rewrites the rows between each table's markers
#   --check    exits 1, naming the tables, when the document is not what the
#              files make, or when a FIELD has no row (a test runs this)
#   --cli      the headroom-cli to ask (default: TOP/build/src/headroom-cli)
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import subprocess
import sys

START = re.compile(r'^<!-- rows made from src/core/fields/(\w+)\.def by build-aux/field-docs\.py -->$')
END = '<!-- end of the rows -->'
ENTRY = re.compile(r'^\s*(FIELD|MEMBER)\s*\(\s*[\w\s]+?,\s*(\w+)|^\s*IGNORED\s*\(\s*"(\w+)"\s*\)')
# Any line that starts an entry, parsed or not: one ENTRY does not read is
# an error, never a field left out of the document.
STARTS_ENTRY = re.compile(r'^\s*(FIELD|MEMBER|IGNORED)\b')
# Each file's section, as paths name it.
SECTIONS = {'lora': 'training.lora', 'dtypes': 'training.dtypes'}
# A line of `--list fields` for a field of names: "training.optimizer  adamw, adam or sgd  adamw ..."
NAMES_LINE = re.compile(r'^(\S+) +([a-z0-9][a-z0-9.-]*(?:, [a-z0-9][a-z0-9.-]*)*'
                        r'(?: or [a-z0-9][a-z0-9.-]*)?) ')


def field_names(cli):
    """{path: [names]} of the fields of names, from headroom-cli --list fields."""
    env = dict(os.environ, LC_ALL='C', LANGUAGE='C')
    listed = subprocess.run([cli, '--list', 'fields'], capture_output=True, text=True,
                            env=env, check=True).stdout
    names = {}
    for line in listed.splitlines():
        m = NAMES_LINE.match(line)
        if m and (',' in m.group(2) or ' or ' in m.group(2)) and m.group(2) != 'true, false':
            names[m.group(1)] = re.split(r', | or ', m.group(2))
    return names


def rows(path, section, names):
    """The table rows of one .def file, and its problems: the FIELDs
    without a row, the entries it cannot read."""
    out, undocumented, doc, comment = [], [], None, None
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.rstrip('\r\n')
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
            if STARTS_ENTRY.match(line):
                undocumented.append('line %d, which this script cannot read' % number)
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
            row = '| `%s` | %s |' % (key, ' '.join(t for t in text if t))
            if '{names}' in row:
                listed = names()['%s.%s' % (section, key)]
                row = row.replace('{names}', ', '.join('`%s`' % n for n in listed))
            out.append(row)
        doc = None
    return out, undocumented


def main(argv):
    check = '--check' in argv
    args = [a for a in argv if a != '--check']
    cli = None
    if '--cli' in args:
        at = args.index('--cli')
        cli = args[at + 1]
        del args[at:at + 2]
    top = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    cli = cli or os.path.join(top, 'build', 'src', 'headroom-cli')
    cache = {}

    def names():
        if 'names' not in cache:
            cache['names'] = field_names(cli)
        return cache['names']

    doc_path = os.path.join(top, 'docs', 'scenario-format.md')
    lines = open(doc_path, encoding='utf-8').read().split('\n')
    made, problems, seen, i = [], [], set(), 0
    while i < len(lines):
        m = START.match(lines[i])
        made.append(lines[i])
        i += 1
        if not m:
            continue
        section = m.group(1)
        table, undocumented = rows(os.path.join(top, 'src', 'core', 'fields', section + '.def'),
                                   SECTIONS.get(section, section), names)
        seen.add(section)
        if undocumented:
            problems.append('src/core/fields/%s.def: no /** row */ above %s'
                            % (section, ', '.join(undocumented)))
        made.extend(lines[i:i + 2])          # the table's header and its rule
        i += 2
        old = []
        while i < len(lines) and lines[i] != END and not START.match(lines[i]):
            old.append(lines[i])
            i += 1
        if i == len(lines) or lines[i] != END:
            # Rewriting would drop what follows the table.
            print('docs/scenario-format.md: the rows of %s.def have no "%s" after them'
                  % (section, END))
            return 1
        if old != table:
            problems.append('docs/scenario-format.md: the rows of %s.def are not what the file says'
                            % section)
        made.extend(table)
    fields_dir = os.path.join(top, 'src', 'core', 'fields')
    for name in sorted(os.listdir(fields_dir)):
        if name.endswith('.def') and name[:-4] not in seen:
            problems.append('docs/scenario-format.md: no table of the rows of %s' % name)
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
        if 'not what the file says' not in p:
            print(p)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
