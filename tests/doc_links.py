#!/usr/bin/env python3
"""doc_links.py [ROOT]: every relative link of every tracked or new *.md file resolves.

A link [text](target) whose target is not a URL (http:, https:, mailto:) must name an
existing file or folder (relative to the linking file; empty = the file itself), and its
#anchor, if any, must be a heading of the target Markdown file.  Anchors are GitHub's:
the heading's text, Markdown inline code and emphasis marks removed, lower-cased, every
character that is not a letter, digit, space, hyphen or underscore dropped, spaces turned
into hyphens; a repeated anchor gets -1, -2, ...  Code blocks (``` fences and indented
blocks) and inline code are not searched for links.  Exit 1 on any bad link."""
import os
import re
import subprocess
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
try:
    files = subprocess.run(['git', '-C', root, 'ls-files', '--cached', '--others',
                            '--exclude-standard', '*.md'], capture_output=True, text=True,
                           check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):   # no git, or not a clone: every *.md
    files = [os.path.relpath(os.path.join(d, f), root)
             for d, ds, fs in os.walk(root) for f in fs if f.endswith('.md')
             if not os.path.relpath(d, root).startswith(('build', '.git'))]


def anchors(path):
    seen, out = {}, set()
    fence = False
    for line in open(path, encoding='utf-8'):
        if line.lstrip().startswith('```'):
            fence = not fence
            continue
        if fence:
            continue
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        text = m.group(2)
        text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)   # links keep their text
        text = text.replace('`', '').replace('*', '')
        slug = ''.join(c for c in text.lower() if c.isalnum() or c in ' -_')
        slug = slug.replace(' ', '-')
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f'{slug}-{n}')
    return out


def links(path):
    """(line, target) of every link; a link's text may span lines within a paragraph"""
    fence = False
    para, start = [], 0

    def scan():
        text = re.sub(r'`[^`]*`', '', ' '.join(para))
        for m in re.finditer(r'\[[^\]]*\]\(([^)\s]*)\)', text):
            yield start, m.group(1)

    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.lstrip().startswith('```'):
            fence = not fence
            yield from scan()
            para = []
            continue
        if fence or line.startswith('    ') or not line.strip():
            yield from scan()
            para = []
            continue
        if not para:
            start = no
        para.append(line.rstrip('\n'))
    yield from scan()


bad = count = 0
cache = {}
for f in files:
    path = os.path.join(root, f)
    for no, target in links(path):
        if re.match(r'^[a-z]+:', target):
            continue
        count += 1
        file_part, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if not os.path.exists(dest):
            print(f'{f}:{no}: {target}: no such file')
            bad += 1
            continue
        if anchor:
            if os.path.isdir(dest) or not dest.endswith('.md'):
                print(f'{f}:{no}: {target}: anchor into a non-Markdown target')
                bad += 1
                continue
            if dest not in cache:
                cache[dest] = anchors(dest)
            if anchor not in cache[dest]:
                print(f'{f}:{no}: {target}: no heading #{anchor} in {os.path.relpath(dest, root)}')
                bad += 1
print(f'{len(files)} Markdown files, {count} relative links, {bad} bad')
sys.exit(1 if bad else 0)
