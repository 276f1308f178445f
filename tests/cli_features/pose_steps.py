"""The steps of check 4 (`marrow pose` with layers, masks, additive layers, root motion and
two-bone IK, cli_features_test.py's docstring) on one rig."""

import json
import math

from .marrow_cli import Report
from .node_trees import find_leg_chain, subtree_nodes
from .poses import check_affine_layout, dist, max_world_difference, model_size, node_by_name, world_translation


class PoseCheck:
    """Check 4 on one rig, in steps. plan: (clip A, time A, clip B, time B) names; every blend
    that must leave the pose alone is compared with `--clip A --time A` (self.single), within
    rel_tol of the model's size; IK within ik_rel_tol of the chain's length."""

    def __init__(self, asset, plan, rel_tol, ik_rel_tol):
        self.asset, self.rel_tol, self.ik_rel_tol = asset, rel_tol, ik_rel_tol
        self.rep = Report("pose", asset.rel)
        self.clip_a, self.ta, self.clip_b, self.tb = plan
        self.single, self.size, self.tol = None, None, None

    def pose(self, *args):
        return self.rep.run_json(["pose", self.asset.path, "--json", "--no-normals"] + list(args) + self.asset.load)

    def start(self):
        """The single clip's pose, the model's size and the tolerance; False when it failed."""
        self.single = self.pose("--clip", self.clip_a, "--time", self.ta)
        if self.single is None:
            return False
        check_affine_layout(self.rep, self.single, f"pose --clip {self.clip_a} --time {self.ta}")
        self.size = model_size(self.single)
        self.tol = self.rel_tol * self.size
        return True

    def same(self, label, other):
        """other (when posed) equals self.single: node world matrices and posed vertices."""
        if other is None:
            return
        worst, at = max_world_difference(self.single, other)
        self.rep.check(worst <= self.tol, f"{label} equals `--clip {self.clip_a} --time {self.ta}` "
                       f"(nodes within {self.rel_tol:g} x size {self.size:.4g})",
                       f"node world matrices differ by {worst:.6g} at {at!r}")
        e = max((abs(x - y) for ma, mb in zip(self.single["meshes"], other["meshes"])
                 for x, y in zip(ma.get("positions") or [], mb.get("positions") or [])), default=0.0)
        self.rep.check(e <= self.tol, f"{label}: posed vertices equal the single clip's", f"differ by {e:.6g}")

    def layers(self):
        """Layers of weight 1 and 0 (both orders) give the weight-1 clip's pose; the other clip
        alone differs (else those checks could not fail)."""
        a, ta, b, tb = self.clip_a, self.ta, self.clip_b, self.tb
        for layers in ((f"{a}@{ta}=1", f"{b}@{tb}=0"), (f"{b}@{tb}=0", f"{a}@{ta}=1")):
            self.same(f"`--layer {layers[0]} --layer {layers[1]}`", self.pose("--layer", layers[0], "--layer", layers[1]))
        other = self.pose("--clip", b, "--time", tb)
        if other is not None:
            worst, _ = max_world_difference(self.single, other)
            self.rep.check(worst > 100 * self.tol, f"`--clip {b} --time {tb}` differs from `--clip {a} --time {ta}` "
                           "(the test can tell them apart)", f"differ by {worst:.3g} only")

    def additive(self):
        """A clip at its own first frame adds nothing; at another time it does."""
        a, ta, b, tb = self.clip_a, self.ta, self.clip_b, self.tb
        self.same(f"`--clip {a} --time {ta} --additive {b}@0=1`", self.pose("--clip", a, "--time", ta, "--additive", f"{b}@0=1"))
        moved = self.pose("--clip", a, "--time", ta, "--additive", f"{b}@{tb}=1")
        if moved is not None:
            worst, _ = max_world_difference(self.single, moved)
            self.rep.check(worst > 100 * self.tol, f"`--additive {b}@{tb}=1` changes the pose (it is applied)",
                           f"changes it by {worst:.3g} only")

    def root_motion(self):
        """`--root-motion` prints the motion it takes out of the pose, none yet at time 0."""
        rep, tol = self.rep, self.tol
        rm = self.pose("--clip", self.clip_a, "--time", self.ta, "--root-motion")
        if rm is None:
            return
        r = rm.get("rootMotion")
        ok = (isinstance(r, dict) and isinstance(r.get("node"), int) and isinstance(r.get("translation"), list)
              and len(r["translation"]) == 3 and all(isinstance(x, (int, float)) and math.isfinite(x) for x in r["translation"])
              and isinstance(r.get("yaw"), (int, float)) and math.isfinite(r["yaw"]))
        rep.check(ok, "`--root-motion` prints rootMotion {node, translation [x,y,z], yaw}", f"rootMotion = {json.dumps(r)}")
        if ok:
            rep.note(f"rootMotion at {self.clip_a}@{self.ta}: {json.dumps(r)}")
            # The motion taken out of the pose is the motion reported: root joint's world
            # translation without --root-motion = with it + rootMotion.translation.
            a = next((n for n in self.single["nodes"] if n["index"] == r["node"]), None)
            b = next((n for n in rm["nodes"] if n["index"] == r["node"]), None)
            if rep.check(a is not None and b is not None, f"rootMotion.node {r['node']} is a node of the pose"):
                back = tuple(x + y for x, y in zip(world_translation(b["world"]), r["translation"]))
                rep.check(dist(back, world_translation(a["world"])) <= tol,
                          "`--root-motion`: the root joint's world translation + rootMotion.translation = its translation without --root-motion",
                          f"{back} vs {world_translation(a['world'])}")
        r0 = self.pose("--clip", self.clip_a, "--time", 0, "--root-motion")
        if r0 is not None and isinstance(r0.get("rootMotion"), dict):
            m0 = r0["rootMotion"]
            rep.check(max(abs(x) for x in m0.get("translation", [1])) <= tol and abs(m0.get("yaw", 1)) <= 1e-6,
                      "`--root-motion` at time 0: no motion accumulated yet", json.dumps(m0))

    def leg_chain(self):
        """(start, mid, end) joint names for the mask and IK steps, which take node names; None
        when the joints are unnamed (noted) or no leg is found (a failure)."""
        named = [b for b in self.asset.info["bones"] if b.get("joint") and b["name"]]
        if not named:
            self.rep.note("masked layer and two-bone IK not checked: the joints have no names, and --layer .../NODE and "
                          "--two-bone-ik take node names only")
            return None
        chain = find_leg_chain(self.asset.info)
        self.rep.check(chain is not None, "a leg chain (start, mid, end joints) is found by name",
                       f"joint names: {[b['name'] for b in named][:30]}")
        return chain

    def masked_layer(self, s):
        """A layer masked to the leg (`/s`): nodes outside s's subtree keep the first layer's pose,
        those inside move. Returns the nodes outside."""
        a, ta, b, tb, tol = self.clip_a, self.ta, self.clip_b, self.tb, self.tol
        inside = subtree_nodes(self.asset.info, node_by_name(self.single, s)["index"])
        outside = {n["index"] for n in self.single["nodes"]} - inside
        masked = self.pose("--layer", f"{a}@{ta}=1", "--layer", f"{b}@{tb}=1/{s}")
        if masked is not None:
            worst, at = max_world_difference(self.single, masked, outside)
            self.rep.check(worst <= tol, f"`--layer {a}@{ta}=1 --layer {b}@{tb}=1/{s}`: the {len(outside)} nodes outside "
                           f"{s}'s subtree keep `--clip {a} --time {ta}`'s pose", f"node world matrices differ by {worst:.6g} at {at!r}")
            worst, _ = max_world_difference(self.single, masked, inside - {node_by_name(self.single, s)["index"]})
            self.rep.check(worst > 100 * tol, f"the masked layer moves the nodes inside {s}'s subtree", f"by {worst:.3g} only")
        return outside

    def two_bone_ik(self, chain, outside):
        """Two-bone IK to a reachable target: the end joint's position moved 10% toward the start
        joint. The end reaches it, the bones keep their lengths, nothing outside the leg moves."""
        rep, (s, m, e) = self.rep, chain
        ps, pm, pe = (world_translation(node_by_name(self.single, n)["world"]) for n in (s, m, e))
        l1, l2 = dist(ps, pm), dist(pm, pe)
        target = tuple(b + 0.1 * (a - b) for a, b in zip(ps, pe))
        reach = dist(ps, target)
        if not rep.check(abs(l1 - l2) < reach < l1 + l2, f"IK target reachable ({s}, {m}, {e})",
                         f"bones {l1:.4g}, {l2:.4g}, target at {reach:.4g}"):
            return
        spec = f"{s},{m},{e}=" + ",".join(f"{x:.9g}" for x in target)
        ik = self.pose("--clip", self.clip_a, "--time", self.ta, "--two-bone-ik", spec)
        if ik is None:
            return
        chain_len, ik_tol = l1 + l2, self.ik_rel_tol * (l1 + l2)
        qs, qm, qe = (world_translation(node_by_name(ik, n)["world"]) for n in (s, m, e))
        label = f"`--clip {self.clip_a} --time {self.ta} --two-bone-ik {spec}`"
        rep.check(dist(qe, target) <= ik_tol, f"{label}: {e} reaches the target within {self.ik_rel_tol:g} x chain {chain_len:.4g}",
                  f"{e} at {qe}, target {target}, distance {dist(qe, target):.6g} (before: {dist(pe, target):.6g})")
        rep.check(abs(dist(qs, qm) - l1) <= ik_tol and abs(dist(qm, qe) - l2) <= ik_tol,
                  f"{label}: the bone lengths are kept", f"{dist(qs, qm):.6g} vs {l1:.6g}, {dist(qm, qe):.6g} vs {l2:.6g}")
        rep.check(dist(qs, ps) <= ik_tol, f"{label}: {s} stays where it was", f"moved {dist(qs, ps):.6g}")
        worst, at = max_world_difference(self.single, ik, outside)
        rep.check(worst <= self.tol, f"{label}: nodes outside {s}'s subtree unchanged", f"differ by {worst:.6g} at {at!r}")
        rep.note(f"IK chain {s} > {m} > {e}: bones {l1:.4g} + {l2:.4g}; end {dist(qe, target):.3g} from the target")
