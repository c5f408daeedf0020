// Run before anything else is loaded, in syntax any Node.js can parse, so
// that an old Node.js gets one clear line instead of a syntax error or a
// failure deep inside a dependency.
'use strict';

// bin/plants.js makes the same check itself (one file fewer for each run): change both.
var REQUIRED = [22, 19];

/** True when this Node.js is new enough; otherwise says so on stderr and sets exit code 1. */
module.exports = function supported(program) {
  var parts = process.versions.node.split('.').map(Number);
  if (parts[0] > REQUIRED[0] || (parts[0] === REQUIRED[0] && parts[1] >= REQUIRED[1])) return true;
  process.stderr.write(
    program + ' requires Node.js ' + REQUIRED.join('.') + ' or newer; this is ' + process.version + '\n',
  );
  process.exitCode = 1;
  return false;
};
