"""A Cell's parameter table for Jupyter (``Cell._repr_html_``): one row per Parameter
with its name, shape, dtype, element count and whether it is trainable, then the
totals. The text form (``repr``) stays MindSpore's."""
from __future__ import annotations

import html

import numpy as np


def parameter_rows(cell):
    """``[(name, shape, dtype, count, requires_grad)]`` of ``cell``'s Parameters."""
    rows = []
    for name, p in cell.parameters_and_names():
        shape = tuple(p.shape)
        rows.append((p.name or name, shape, str(p.dtype), int(np.prod(shape, dtype=np.int64)),
                     bool(p.requires_grad)))
    return rows


def cell_html(cell):
    rows = parameter_rows(cell)
    total = sum(r[3] for r in rows)
    trainable = sum(r[3] for r in rows if r[4])
    head = (f"<b>{html.escape(type(cell).__name__)}</b>: {len(rows)} parameters, {total:,} values "
            f"({trainable:,} trainable)")
    cells = "".join(
        f"<tr><td style='text-align:left'>{html.escape(n)}</td><td>{html.escape(str(list(s)))}</td>"
        f"<td>{html.escape(d)}</td><td style='text-align:right'>{c:,}</td><td>{'yes' if g else 'no'}</td></tr>"
        for n, s, d, c, g in rows)
    return (f"<div>{head}<table><thead><tr><th style='text-align:left'>name</th><th>shape</th><th>dtype</th>"
            f"<th>count</th><th>trainable</th></tr></thead><tbody>{cells}</tbody></table></div>")
