"""MindSpore's compile tutorials block by block: msjax beside MindSpore 2.10.

Reads a tutorial page (Markdown, from a checkout or a ``fetch`` of ``mindspore-ai/docs``:
``tutorials/source_en/compile/{static_graph,statements,python_builtin_functions,
static_graph_expert_programming}.md``), writes one script running its ``python`` code blocks in
order in one process, each in a ``try`` (an exception prints ``!!!!! Type: first line``), runs it
with MindSpore's Python and with ``python -m msjax run``, and prints per page how many blocks
print the same, and the blocks that differ (``-v``: both outputs). Nothing of the page is kept.

    python bench/compile_pages.py --ms /tmp/ms/bin/python [-v] PAGE.md [PAGE.md ...]
    git --git-dir=/work/.mirror/mindspore-ai+docs/repo show \\
        HEAD:tutorials/source_en/compile/statements.md > /tmp/statements.md
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def code_blocks(text):
    """The page's ``python`` fenced blocks, dedented (list items indent them)."""
    blocks, cur, lang = [], None, None
    for line in text.split("\n"):
        s = line.strip()
        if cur is None and s.startswith("```"):
            lang, cur = s[3:].strip(), []
        elif cur is not None and s == "```":
            if lang == "python":
                blocks.append(textwrap.dedent("\n".join(cur)))
            cur = None
        elif cur is not None:
            cur.append(line)
    return blocks


def wrapped_script(blocks):
    out = ["import sys as _sys\n"]
    for i, b in enumerate(blocks):
        out.append(f"print('===== block {i}', flush=True)")
        try:
            compile(b, f"block{i}", "exec")
        except SyntaxError:
            out.append("print('!!!!! SyntaxError (not Python)')\n")
            continue
        out.append("try:\n" + textwrap.indent(b, "    ", lambda _: True) + "\n    pass\n"
                   "except BaseException as _e:\n"
                   "    print('!!!!! %s: %s' % (type(_e).__name__, str(_e).strip().split(chr(10))[0][:300]))\n"
                   "_sys.stdout.flush()\n")
    return "\n".join(out) + "\nprint('===== end', flush=True)\n"


def per_block(stdout):
    found, cur = {}, None
    for line in stdout.split("\n"):
        m = re.match(r"===== block (\d+)$", line)
        if m:
            cur = int(m.group(1))
            found[cur] = []
        elif line.startswith("===== end"):
            cur = None
        elif cur is not None:
            found[cur].append(line)
    return found


def run(cmd, script, cwd):
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=ROOT)
    return subprocess.run(cmd + [script], capture_output=True, text=True, cwd=cwd, env=env, timeout=1800).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ms", required=True, help="MindSpore 2.10's python")
    ap.add_argument("-v", action="store_true", help="print both outputs of the blocks that differ")
    ap.add_argument("pages", nargs="+")
    args = ap.parse_args()
    total = same_total = 0
    for page in args.pages:
        with open(page, encoding="utf-8") as f:
            script_text = wrapped_script(code_blocks(f.read()))
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "page.py")
            with open(script, "w", encoding="utf-8") as f:
                f.write(script_text)
            ms_out = per_block(run([args.ms], script, tmp))
            jx_out = per_block(run([sys.executable, "-m", "msjax", "run"], script, tmp))
        differ = [k for k in sorted(set(ms_out) | set(jx_out)) if ms_out.get(k) != jx_out.get(k)]
        total += len(ms_out)
        same_total += len(ms_out) - len(differ)
        print(f"{os.path.basename(page)}: {len(ms_out) - len(differ)} of {len(ms_out)} blocks the same; "
              f"differ: {differ}")
        for k in differ if args.v else ():
            print(f"--- block {k}\nMS: " + "\nMS: ".join(ms_out.get(k, ["<missing>"])) +
                  "\nJX: " + "\nJX: ".join(jx_out.get(k, ["<missing>"])))
    print(f"all: {same_total} of {total}")


if __name__ == "__main__":
    main()
