"""The node tree of `marrow info`'s bones: roots, subtrees, matching two files' trees, a leg chain."""

import re


def root_nodes(info):
    """Scene nodes whose parent is the synthetic root (or none)."""
    by_bone = {b["bone"]: b for b in info["bones"]}
    out = []
    for b in info["bones"]:
        if b["node"] < 0:
            continue
        parent = by_bone.get(b["parentBone"])
        if parent is None or parent["node"] < 0:
            out.append(b["node"])
    return out


def subtree_sizes(bones):
    """({bone: its children}, {bone: the bone count of its subtree}); -1 is the synthetic root."""
    children = {}
    for b in bones:
        children.setdefault(b["parentBone"], []).append(b["bone"])
    size = {}
    for b in sorted(bones, key=lambda b: -b["bone"]):  # children have higher bone indices (P7)
        size[b["bone"]] = 1 + sum(size.get(c, 1) for c in children.get(b["bone"], []))
    return children, size


def match_node_trees(info_a, info_b):
    """{node of a: node of b} matching marrow info's bone trees: children by name and subtree size,
    then by name, then (unnamed) by subtree size and order. Also the node names of a left unmatched."""
    bones_a = {b["bone"]: b for b in info_a["bones"]}
    bones_b = {b["bone"]: b for b in info_b["bones"]}
    kids_a, size_a = subtree_sizes(info_a["bones"])
    kids_b, size_b = subtree_sizes(info_b["bones"])
    mapping, unmatched = {}, []

    def match(list_a, list_b):
        free = list(list_b)
        for x in list_a:
            bx = bones_a[x]
            tests = (lambda y: bones_b[y]["name"] == bx["name"] and size_b[y] == size_a[x],
                     lambda y: bones_b[y]["name"] == bx["name"],
                     lambda y: bx["name"] is None and size_b[y] == size_a[x])
            y = next((y for t in tests for y in free if t(y)), None)
            if y is None:
                unmatched.append(bx["name"] or f"node {bx['node']}")
                continue
            free.remove(y)
            if bx["node"] >= 0 and bones_b[y]["node"] >= 0:
                mapping[bx["node"]] = bones_b[y]["node"]
            match(kids_a.get(x, []), kids_b.get(y, []))

    match(kids_a.get(-1, []), kids_b.get(-1, []))
    return mapping, unmatched


def subtree_nodes(info, node):
    """Scene nodes in node's subtree (node included), from marrow info's bone tree."""
    bone_of = {b["node"]: b["bone"] for b in info["bones"] if b["node"] >= 0}
    node_of = {b["bone"]: b["node"] for b in info["bones"]}
    children = {}
    for b in info["bones"]:
        children.setdefault(b["parentBone"], []).append(b["bone"])
    out, stack = set(), [bone_of[node]]
    while stack:
        bone = stack.pop()
        if node_of[bone] >= 0:
            out.add(node_of[bone])
        stack.extend(children.get(bone, []))
    return out


# Joint names of a left leg: start (thigh), middle (knee), end (foot), as the rigs checked name them.
LEFT = re.compile(r"(?i)(left|(^|[^a-z])l([^a-z]|$)|\.l$)")
START = re.compile(r"(?i)(thigh|upleg|upperleg|leg|hip)")
MID = re.compile(r"(?i)(leg|knee|shin|calf)")
END = re.compile(r"(?i)(foot|ankle)")


def find_leg_chain(info):
    """(start, mid, end) node names of a left leg: three named joints, parent to grandchild."""
    joint_nodes = {b["node"]: b for b in info["bones"] if b.get("joint") and b["node"] >= 0}
    for b in info["bones"]:
        if not (b["node"] in joint_nodes and b["name"] and START.search(b["name"]) and LEFT.search(b["name"])):
            continue
        for m in (x for x in info["bones"] if x["parentBone"] == b["bone"] and x["node"] in joint_nodes):
            if not (m["name"] and MID.search(m["name"])):
                continue
            for e in (x for x in info["bones"] if x["parentBone"] == m["bone"] and x["node"] in joint_nodes):
                if e["name"] and END.search(e["name"]):
                    return b["name"], m["name"], e["name"]
    return None
