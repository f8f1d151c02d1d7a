/**
 * The mixed catalogue bench's request picker (catalogue-mixed.ts), loaded by autocannon's worker thread: each
 * request gets a path drawn from its row's population (a Zipf-like choice, the popular first) and the token of one
 * of the 2,000 users, uniformly. The row comes in the `x-bench-row` header the load sets; the data in the JSON file
 * BENCH_MIXED_FILE names.
 */
/* eslint-disable @typescript-eslint/no-require-imports, no-undef -- CommonJS: autocannon's worker require()s it */
'use strict';
const { readFileSync } = require('node:fs');

const data = JSON.parse(readFileSync(process.env.BENCH_MIXED_FILE, 'utf8'));

/** The index whose cumulative weight first exceeds a uniform draw. */
function pick(cdf) {
  const draw = Math.random() * cdf[cdf.length - 1];
  let low = 0;
  let high = cdf.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cdf[mid] > draw) high = mid;
    else low = mid + 1;
  }
  return low;
}

module.exports = function setupRequest(request) {
  const row = data.rows[request.headers['x-bench-row']];
  request.path = row.paths[pick(row.cdf)];
  request.headers.authorization = `Bearer ${data.tokens[Math.floor(Math.random() * data.tokens.length)]}`;
  return request;
};
