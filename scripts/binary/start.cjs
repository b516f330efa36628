// Written beside the unpacked tree: a CommonJS file loaded from disk, so its dynamic import() has a module loader
// (the executable's embedded main script cannot import ES modules itself).
'use strict';
const { pathToFileURL } = require('node:url');
module.exports = (entry) => import(pathToFileURL(entry).href);
