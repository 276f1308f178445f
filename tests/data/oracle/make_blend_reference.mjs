// Writes the oracle reference poses of blended layers (B2, B3) that tests/conformance_test.cpp
// compares `marrow pose --layer/--additive` poses against. Run through regenerate.sh.
//
// three.js's AnimationMixer blends the layers: normal actions by weighted accumulation (two
// actions at equal weights: the midpoint of translations and the slerp at 0.5 of rotations,
// i.e. B2's normalized mean), additive actions (AnimationUtils.makeClipAdditive against frame
// 0) by base * slerp(identity, delta, w) and base + w * delta, which is B3 at w = 1 for clips
// of constant scale. A layer masked to a node's subtree is the clip with only the tracks of
// that subtree. Every action is LoopOnce with clampWhenFinished and sits at its own time. The
// mixed local transforms are then posed by the oracle's own computePose as a one-key clip.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [assetsDir, outDir] = process.argv.slice(2);
const oracle = process.env.ORACLE_DIR;
const lib = await import(pathToFileURL(path.join(oracle, 'lib.mjs')).href);
const THREE = await import(pathToFileURL(path.join(oracle, 'node_modules/three/build/three.module.js')).href);

const round = (values) => values.map((v) => Number(v.toPrecision(7)));

// Each case: the file, its normal layers and its additive layers (clip index, time in seconds,
// weight, mask: a glTF node index whose subtree the layer is limited to, or null). Two normal
// layers at equal weights (three's accumulation equals B2 there), additive layers at weight 1.
const cases = [
  { file: 'gltf/Fox/Fox.gltf', name: 'walk_run', layers: [[1, 0.3, 1, null], [2, 0.5, 1, null]], additive: [] },
  { file: 'gltf/Fox/Fox.gltf', name: 'survey_walk_upper_body', layers: [[0, 1.0, 1, null], [1, 0.25, 1, 5]], additive: [] },
  { file: 'gltf/Fox/Fox.gltf', name: 'run_legs_walk', layers: [[2, 0.9, 1, null], [1, 0.6, 1, 18]], additive: [] },
  { file: 'gltf/Fox/Fox.gltf', name: 'walk_additive_survey', layers: [[1, 0.4, 1, null]], additive: [[0, 1.7, 1, null]] },
  { file: 'gltf/CesiumMan/cesium_man.gltf', name: 'two_times', layers: [[0, 0.5, 1, null], [0, 1.2, 1, null]], additive: [] },
  { file: 'gltf/CesiumMan/cesium_man.gltf', name: 'upper_body', layers: [[0, 0.3, 1, null], [0, 1.5, 1, 12]], additive: [] },
  { file: 'gltf/CesiumMan/cesium_man.gltf', name: 'additive', layers: [[0, 0.8, 1, null]], additive: [[0, 1.6, 1, null]] },
];

function inSubtree(obj, root) {
  for (let o = obj; o; o = o.parent) if (o === root) return true;
  return false;
}

// The clip limited to the tracks whose target lies in the subtree of `root`.
function masked(clip, scene, root) {
  const tracks = clip.tracks.filter((t) => {
    const target = THREE.PropertyBinding.findNode(scene, THREE.PropertyBinding.parseTrackName(t.name).nodeName);
    return target && inSubtree(target, root);
  });
  return new THREE.AnimationClip(`${clip.name}_masked`, clip.duration, tracks);
}

async function blendedPose(loaded, spec) {
  const { gltf, original } = loaded;
  await lib.computePose(loaded, {});  // back to the rest pose
  const { nodeObjects } = lib.buildIndex(gltf, loaded.meshOrigin);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const add = ([clipIndex, time, weight, mask], additive) => {
    let clip = gltf.animations[clipIndex].clone();  // one action per layer, even for one clip
    if (mask !== null) clip = masked(clip, gltf.scene, nodeObjects.get(mask));
    if (additive) clip = THREE.AnimationUtils.makeClipAdditive(clip, 0);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.setEffectiveWeight(weight);
    action.play();
    action.time = Math.min(Math.max(time, 0), clip.duration);
  };
  spec.layers.forEach((l) => add(l, false));
  spec.additive.forEach((l) => add(l, true));
  mixer.update(0);
  // The mixed local transforms as a one-key clip, posed by the oracle itself.
  const tracks = [];
  for (const obj of nodeObjects.values()) {
    tracks.push(new THREE.VectorKeyframeTrack(`${obj.uuid}.position`, [0], obj.position.toArray()));
    tracks.push(new THREE.QuaternionKeyframeTrack(`${obj.uuid}.quaternion`, [0], obj.quaternion.toArray()));
    tracks.push(new THREE.VectorKeyframeTrack(`${obj.uuid}.scale`, [0], obj.scale.toArray()));
  }
  mixer.stopAllAction();
  const name = '__marrow_blend__';
  gltf.animations.push(new THREE.AnimationClip(name, 0, tracks));
  (original.animations = original.animations || []).push({ name });
  const pose = await lib.computePose(loaded, { clip: name, time: 0 });
  gltf.animations.pop();
  original.animations.pop();
  return pose;
}

const byFile = new Map();
for (const c of cases) {
  if (!byFile.has(c.file)) byFile.set(c.file, []);
  byFile.get(c.file).push(c);
}
const layerJson = ([clip, time, weight, mask]) => ({ clip, time, weight, mask });
for (const [file, list] of byFile) {
  const loaded = await lib.loadGltf(path.join(assetsDir, file));
  const poses = [];
  for (const c of list) {
    const p = await blendedPose(loaded, c);
    poses.push({
      name: c.name,
      layers: c.layers.map(layerJson),
      additive: c.additive.map(layerJson),
      nodes: p.nodes.map((n) => ({ index: n.index, world: round(n.world) })),
      skins: p.skins.map((s) => ({ index: s.index, jointMatrices: s.jointMatrices.map(round) })),
      meshes: p.meshes.map((m) => ({ node: m.node, primitive: m.primitive, positions: round(m.positions) })),
      morphWeights: [],
    });
  }
  const out = { file, threeVersion: lib.THREE_VERSION, poses };
  const name = 'blend_' + file.replace(/[\/.]/g, '_') + '.json';
  fs.writeFileSync(path.join(outDir, name), JSON.stringify(out));
  console.log(`${name}: ${poses.length} poses`);
}
