// Writes the oracle reference poses that tests/conformance_test.cpp compares marrow against.
// Run through regenerate.sh, which sets ORACLE_DIR to an installed copy of ../shared/tools/oracle.
// Per asset: the rest pose and, for every clip, the pose at 25%, 50% and 80% of its duration;
// node world matrices, skin joint matrices, posed positions (and rest-pose normals), rounded to
// 7 significant digits.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [assetsDir, outDir, ...files] = process.argv.slice(2);
const lib = await import(pathToFileURL(path.join(process.env.ORACLE_DIR, 'lib.mjs')).href);

const round = (values) => values.map((v) => Number(v.toPrecision(7)));

for (const file of files) {
  const loaded = await lib.loadGltf(path.join(assetsDir, file));
  const rest = await lib.computePose(loaded, {});
  const poses = [rest];
  const clipCount = loaded.gltf.animations.length;
  for (let clip = 0; clip < clipCount; ++clip) {
    const probe = await lib.computePose(loaded, { clip, time: 0 });
    const duration = probe.clip.duration;
    for (const f of [0.25, 0.5, 0.8]) poses.push(await lib.computePose(loaded, { clip, time: duration * f }));
  }
  const out = {
    file,
    threeVersion: lib.THREE_VERSION,
    poses: poses.map((p) => ({
      clip: p.clip ? p.clip.index : null,
      time: p.time,
      nodes: p.nodes.map((n) => ({ index: n.index, world: round(n.world) })),
      skins: p.skins.map((s) => ({
        index: s.index, jointMatrices: s.jointMatrices.map(round),
        // A skin several mesh nodes use: each node's joint matrices.
        ...(s.perNode ? { perNode: s.perNode.map((u) => ({ node: u.node, jointMatrices: u.jointMatrices.map(round) })) } : {}),
      })),
      meshes: p.meshes.map((m) => ({
        node: m.node, primitive: m.primitive, positions: round(m.positions),
        // Normals for the rest pose only, to keep the committed data small.
        ...(m.normals && !p.clip ? { normals: round(m.normals) } : {}),
      })),
      morphWeights: p.morphWeights.map((w) => ({ node: w.node, weights: round(w.weights) })),
    })),
  };
  const name = file.replace(/[\/.]/g, '_') + '.json';
  fs.writeFileSync(path.join(outDir, name), JSON.stringify(out));
  console.log(`${name}: ${poses.length} poses`);
}
