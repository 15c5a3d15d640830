#!/usr/bin/env node
// A BLEU implementation in JavaScript that speaks bleu-conformance's JSON Lines protocol
// (docs/protocol.md, version 1). It implements the paper's corpus BLEU (Papineni et al.
// 2002): whitespace tokens, clipped n-gram counts, closest reference length (ties to the
// shorter), no smoothing (any zero precision gives 0). Knobs: max_order and weights.
//
//   bleu-conformance run --impl "jsonl:node examples/node-bleu/adapter.js"
"use strict";

const readline = require("node:readline");

const HELLO = {
  protocol: 1,
  implementation: {
    name: "node-bleu",
    version: "1.0.0",
    levels: ["sentence", "corpus"],
    inputs: ["raw", "tokenized"],
    native: "papineni2002",
    knobs: { max_order: null, weights: null },
    scale: 1,
    precision: null,
    expect: ["papineni2002"],
  },
};

function tokens(text) {
  if (Array.isArray(text)) return text;
  const t = text.trim();
  return t === "" ? [] : t.split(/\s+/u);
}

function ngramCounts(toks, n) {
  const counts = new Map();
  for (let i = 0; i + n <= toks.length; i++) {
    const key = JSON.stringify(toks.slice(i, i + n));
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts;
}

function closestRefLength(refLens, hypLen) {
  let best = null;
  for (const len of refLens) {
    const diff = Math.abs(len - hypLen);
    if (best === null || diff < best[0] || (diff === best[0] && len < best[1])) best = [diff, len];
  }
  return best === null ? 0 : best[1];
}

function score(request) {
  const config = request.config || {};
  let weights = config.weights;
  const order = weights ? weights.length : config.max_order || 4;
  if (!weights) weights = Array(order).fill(1 / order);
  const counts = Array(order).fill(0);
  const totals = Array(order).fill(0);
  let hypLen = 0;
  let refLen = 0;
  request.hypotheses.forEach((hypText, i) => {
    const hyp = tokens(hypText);
    const refs = request.references[i].filter((r) => r !== null).map(tokens);
    if (refs.length === 0) throw { kind: "missing-reference", message: `segment ${i} has no reference` };
    hypLen += hyp.length;
    refLen += closestRefLength(refs.map((r) => r.length), hyp.length);
    for (let n = 1; n <= order; n++) {
      const maxRef = new Map();
      for (const ref of refs) {
        for (const [g, c] of ngramCounts(ref, n)) maxRef.set(g, Math.max(maxRef.get(g) || 0, c));
      }
      for (const [g, c] of ngramCounts(hyp, n)) counts[n - 1] += Math.min(c, maxRef.get(g) || 0);
      totals[n - 1] += Math.max(0, hyp.length - n + 1);
    }
  });
  const bp = hypLen > refLen ? 1 : hypLen === 0 ? 0 : Math.exp(1 - refLen / hypLen);
  let logSum = 0;
  let zero = false;
  for (let n = 0; n < order; n++) {
    if (counts[n] === 0 || totals[n] === 0) zero = true;
    else logSum += weights[n] * Math.log(counts[n] / totals[n]);
  }
  const value = zero ? 0 : bp * Math.exp(logSum);
  return { score: value, counts, totals, bp, hyp_len: hypLen, ref_len: refLen };
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  let answer;
  if (message.cmd === "hello") {
    answer = HELLO;
  } else if (message.cmd === "score") {
    try {
      answer = { seq: message.seq, ...score(message.request) };
    } catch (err) {
      answer = { seq: message.seq, failure: { kind: err.kind || null, message: String(err.message || err) } };
    }
  } else if (message.cmd === "stop") {
    rl.close();
    return;
  } else {
    process.stderr.write(`node-bleu: unknown command ${message.cmd}\n`);
    return;
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
