#!/usr/bin/env python3
"""Checks that the layer diagram at the top of CONTRIBUTING.md is the CMake link graph.

usage: check_layers.py CONTRIBUTING.md GRAPH.dot

GRAPH.dot comes from `cmake --graphviz` on a configure of the project. The diagram's block
lists, for each of our targets, the targets of ours it links directly ("a -> b c"; a target
with no dependency of ours stands alone). The test fails when a listed target links something
the diagram does not show, when the diagram shows a link that does not exist, when one of our
library targets is missing from the diagram, or when the graph is not in the diagram's order
(each target may link only targets listed below it: the one-direction rule). The plan's block
(<!-- planned:begin -->) lists the layers still to come with the most each may link: one that has
landed must be in the diagram and link no more than its plan allows.
"""

import re
import sys

# Build-only helper targets (warning flags, strict floating point) are not layers.
IGNORED = {"lngrad_warnings", "lngrad_strict_fp"}


def read_diagram(path, block="layers"):
    text = open(path, encoding="utf-8").read()
    m = re.search(
        rf"<!-- {block}:begin -->\s*```[a-z]*\n(.*?)```\s*<!-- {block}:end -->", text, re.S
    )
    if not m:
        sys.exit(f"{path}: no block between <!-- {block}:begin --> and <!-- {block}:end -->")
    order, deps = [], {}
    for line in m.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, rest = line.partition("->")
        name = name.split()[0]
        order.append(name)
        deps[name] = set(rest.split())
    return order, deps


def read_graph(path):
    labels, edges = {}, {}
    for line in open(path, encoding="utf-8"):
        node = re.match(r'\s*"(node\d+)" \[ label = "([^"\\]+)', line)
        if node:
            labels[node.group(1)] = node.group(2)
            continue
        edge = re.match(r'\s*"(node\d+)" -> "(node\d+)"', line)
        if edge:
            edges.setdefault(edge.group(1), set()).add(edge.group(2))
    graph = {}
    for src, dsts in edges.items():
        graph.setdefault(labels[src], set()).update(labels[d] for d in dsts)
    for name in labels.values():
        graph.setdefault(name, set())
    return graph


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    order, diagram = read_diagram(sys.argv[1])
    _, planned = read_diagram(sys.argv[1], "planned")
    graph = read_graph(sys.argv[2])
    ours = {n for n in graph if n.startswith("lngrad_") and n not in IGNORED}
    errors = []
    # The plan (CONTRIBUTING.md, "Where the next layers go"): a planned layer that has landed is
    # in the diagram, and links no more than its planned line allows.
    for name, allowed in sorted(planned.items()):
        if name in graph and name not in diagram:
            errors.append(f"{name} has landed: move its line from the plan into the diagram")
        if name in diagram:
            for d in sorted(diagram[name] - allowed):
                errors.append(
                    f"{name} -> {d} is not in the plan ({name} may link only "
                    f"{' '.join(sorted(allowed)) or 'nothing of ours'})"
                )
    for name in sorted(ours - set(order)):
        errors.append(f"{name} is a target of ours but not in the diagram")
    for i, name in enumerate(order):
        if name not in graph:
            errors.append(f"{name} is in the diagram but is not a CMake target")
            continue
        actual = {d for d in graph[name] if d in ours}
        for d in sorted(actual - diagram[name]):
            errors.append(f"{name} links {d}, which the diagram does not show")
        for d in sorted(diagram[name] - actual):
            errors.append(f"the diagram shows {name} -> {d}, which CMake does not link")
        below = set(order[i + 1 :])
        for d in sorted(diagram[name] - below):
            errors.append(f"{name} -> {d} points up or sideways: {d} must be listed below {name}")
    if errors:
        print("\n".join(errors))
        return 1
    print(
        f"check_layers: {len(order)} targets, the diagram matches the link graph; "
        f"{sum(n not in graph for n in planned)} planned layers still to land"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
