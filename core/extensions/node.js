// The parts of Node's built-in modules gopi writes in JavaScript, over
// the native parts node.go passes in. Written for gopi from Node's
// documented behaviour. Evaluates to make(name, native, require).
(function () {
  "use strict";
  const made = {};

  function EventEmitter() {
    this._events = {};
  }
  EventEmitter.prototype._list = function (name) {
    if (!this._events) this._events = {};
    return this._events[name] || (this._events[name] = []);
  };
  EventEmitter.prototype.on = function (name, fn) {
    this._list(name).push(fn);
    return this;
  };
  EventEmitter.prototype.addListener = EventEmitter.prototype.on;
  EventEmitter.prototype.prependListener = function (name, fn) {
    this._list(name).unshift(fn);
    return this;
  };
  EventEmitter.prototype.once = function (name, fn) {
    const self = this;
    function once(...args) {
      self.off(name, once);
      return fn.apply(this, args);
    }
    once.listener = fn;
    return this.on(name, once);
  };
  EventEmitter.prototype.off = function (name, fn) {
    const l = this._list(name);
    const i = l.findIndex((f) => f === fn || f.listener === fn);
    if (i >= 0) l.splice(i, 1);
    return this;
  };
  EventEmitter.prototype.removeListener = EventEmitter.prototype.off;
  EventEmitter.prototype.removeAllListeners = function (name) {
    if (name === undefined) this._events = {};
    else delete this._list(name) && delete this._events[name];
    return this;
  };
  EventEmitter.prototype.emit = function (name, ...args) {
    const l = this._list(name).slice();
    if (name === "error" && l.length === 0) throw args[0] instanceof Error ? args[0] : new Error("Unhandled error: " + String(args[0]));
    for (const fn of l) fn.apply(this, args);
    return l.length > 0;
  };
  EventEmitter.prototype.listenerCount = function (name) {
    return this._list(name).length;
  };
  EventEmitter.prototype.listeners = function (name) {
    return this._list(name).map((f) => f.listener || f);
  };
  EventEmitter.prototype.eventNames = function () {
    return Object.keys(this._events || {}).filter((k) => this._events[k].length);
  };
  EventEmitter.prototype.setMaxListeners = function () {
    return this;
  };
  EventEmitter.prototype.getMaxListeners = () => 10;
  EventEmitter.EventEmitter = EventEmitter;
  EventEmitter.defaultMaxListeners = 10;
  EventEmitter.once = (em, name) => new Promise((resolve, reject) => {
    em.once(name, (...args) => resolve(args));
    if (name !== "error") em.once("error", reject);
  });
  EventEmitter.default = EventEmitter;

  function inherits(ctor, parent) {
    Object.setPrototypeOf(ctor.prototype, parent.prototype);
    Object.setPrototypeOf(ctor, parent);
  }

  // stream: enough for code that pipes, listens for data and end, or
  // collects a Readable.
  function Stream(opts) {
    EventEmitter.call(this);
    this._opts = opts || {};
  }
  inherits(Stream, EventEmitter);
  Stream.prototype.pipe = function (dest) {
    this.on("data", (c) => dest.write(c));
    this.on("end", () => { if (dest.end && dest !== made.process.stdout && dest !== made.process.stderr) dest.end(); });
    return dest;
  };
  function Readable(opts) {
    Stream.call(this, opts);
    this._ended = false;
    this.readable = true;
    if (opts && opts.read) this._read = opts.read;
  }
  inherits(Readable, Stream);
  Readable.prototype.push = function (chunk) {
    if (chunk === null) {
      if (!this._ended) {
        this._ended = true;
        Promise.resolve().then(() => { this.emit("end"); this.emit("close"); });
      }
      return false;
    }
    if (this._encoding && typeof chunk !== "string") chunk = chunk.toString(this._encoding);
    this.emit("data", chunk);
    return true;
  };
  Readable.prototype.setEncoding = function (enc) {
    this._encoding = enc;
    return this;
  };
  Readable.prototype.resume = function () { return this; };
  Readable.prototype.pause = function () { return this; };
  Readable.prototype.destroy = function (err) {
    if (err) this.emit("error", err);
    this.emit("close");
    return this;
  };
  Readable.prototype[Symbol.asyncIterator] = function () {
    const queue = [];
    let waiting = null;
    let done = false;
    let failed = null;
    const wake = () => { if (waiting) { const w = waiting; waiting = null; w(); } };
    this.on("data", (c) => { queue.push(c); wake(); });
    this.on("end", () => { done = true; wake(); });
    this.on("error", (e) => { failed = e; wake(); });
    return {
      next: () => new Promise((resolve, reject) => {
        const step = () => {
          if (failed) return reject(failed);
          if (queue.length) return resolve({ value: queue.shift(), done: false });
          if (done) return resolve({ value: undefined, done: true });
          waiting = step;
        };
        step();
      }),
      [Symbol.asyncIterator]() { return this; },
    };
  };
  Readable.from = function (iterable) {
    const r = new Readable();
    const it = iterable[Symbol.asyncIterator] ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
    const step = () => Promise.resolve(it.next()).then((res) => {
      if (res.done) return r.push(null);
      r.push(res.value);
      return step();
    });
    Promise.resolve().then(step).catch((e) => r.emit("error", e));
    return r;
  };
  function Writable(opts) {
    Stream.call(this, opts);
    this.writable = true;
    if (opts && opts.write) this._write = opts.write;
    if (opts && opts.final) this._final = opts.final;
  }
  inherits(Writable, Stream);
  Writable.prototype._write = function (chunk, enc, cb) { cb(); };
  Writable.prototype.write = function (chunk, enc, cb) {
    if (typeof enc === "function") { cb = enc; enc = undefined; }
    this._write(chunk, enc || "utf8", (err) => { if (err) this.emit("error", err); if (cb) cb(err); });
    return true;
  };
  Writable.prototype.end = function (chunk, enc, cb) {
    if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
    if (chunk !== undefined && chunk !== null) this.write(chunk, enc);
    const finish = () => { this.writable = false; this.emit("finish"); this.emit("close"); if (cb) cb(); };
    if (this._final) this._final((err) => (err ? this.emit("error", err) : finish()));
    else finish();
    return this;
  };
  function Transform(opts) {
    Readable.call(this, opts);
    Writable.call(this, opts);
    if (opts && opts.transform) this._transform = opts.transform;
  }
  inherits(Transform, Readable);
  Transform.prototype.write = function (chunk, enc, cb) {
    if (typeof enc === "function") { cb = enc; enc = undefined; }
    this._transform(chunk, enc || "utf8", (err, out) => {
      if (err) this.emit("error", err);
      else if (out !== undefined && out !== null) this.push(out);
      if (cb) cb(err);
    });
    return true;
  };
  Transform.prototype._transform = function (chunk, enc, cb) { cb(null, chunk); };
  Transform.prototype.end = function (chunk, enc, cb) {
    if (typeof chunk === "function") { cb = chunk; chunk = undefined; }
    if (chunk !== undefined && chunk !== null) this.write(chunk, enc);
    this.emit("finish");
    this.push(null);
    if (cb) cb();
    return this;
  };
  function PassThrough(opts) { Transform.call(this, opts); }
  inherits(PassThrough, Transform);
  const Duplex = Transform;

  function inspect(v, opts, depth) {
    depth = depth || 0;
    const seen = (opts && opts._seen) || new Set();
    if (typeof v === "string") return depth === 0 ? v : JSON.stringify(v);
    if (v === null || v === undefined || typeof v === "number" || typeof v === "boolean") return String(v);
    if (typeof v === "bigint") return v + "n";
    if (typeof v === "symbol") return v.toString();
    if (typeof v === "function") return "[Function: " + (v.name || "(anonymous)") + "]";
    if (v instanceof Error) return v.stack || String(v);
    if (seen.has(v)) return "[Circular *1]";
    if (depth > 2) return Array.isArray(v) ? "[Array]" : "[Object]";
    seen.add(v);
    const sub = (x) => inspect(x, { _seen: seen }, depth + 1);
    let out;
    if (Array.isArray(v)) out = v.length ? "[ " + v.map(sub).join(", ") + " ]" : "[]";
    else if (v instanceof Map) out = "Map(" + v.size + ") { " + Array.from(v, ([k, x]) => sub(k) + " => " + sub(x)).join(", ") + " }";
    else if (v instanceof Set) out = "Set(" + v.size + ") { " + Array.from(v, sub).join(", ") + " }";
    else if (v instanceof Date) out = v.toISOString();
    else {
      const keys = Object.keys(v);
      const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
      out = keys.length ? "{ " + keys.map((k) => key(k) + ": " + sub(v[k])).join(", ") + " }" : "{}";
    }
    seen.delete(v);
    return out;
  }

  const custom = Symbol.for("nodejs.util.promisify.custom");
  function promisify(fn) {
    if (typeof fn !== "function") throw new TypeError("The \"original\" argument must be of type function");
    if (fn[custom]) return fn[custom];
    return function (...args) {
      return new Promise((resolve, reject) => {
        fn.call(this, ...args, (err, ...vals) => (err ? reject(err) : resolve(vals.length > 1 ? vals : vals[0])));
      });
    };
  }
  promisify.custom = custom;

  function makeUtil(native) {
    const format = native.format;
    return {
      format,
      inspect,
      promisify,
      callbackify: (fn) => function (...args) {
        const cb = args.pop();
        fn.apply(this, args).then((v) => cb(null, v), (e) => cb(e));
      },
      inherits,
      deprecate: (fn) => fn,
      isDeepStrictEqual: (a, b) => JSON.stringify(a) === JSON.stringify(b),
      types: {
        isPromise: (v) => v instanceof Promise,
        isDate: (v) => v instanceof Date,
        isRegExp: (v) => v instanceof RegExp,
        isNativeError: (v) => v instanceof Error,
      },
      TextEncoder: globalThis.TextEncoder,
      TextDecoder: globalThis.TextDecoder,
    };
  }

  function makeProcess(p) {
    const emitter = new EventEmitter();
    for (const k of ["on", "once", "off", "emit", "removeListener", "removeAllListeners", "listeners", "listenerCount"]) {
      p[k] = emitter[k].bind(emitter);
    }
    p.nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));
    const start = Date.now();
    p.hrtime = (prev) => {
      const ms = Date.now() - start;
      let s = Math.floor(ms / 1000), ns = (ms % 1000) * 1e6;
      if (prev) { s -= prev[0]; ns -= prev[1]; if (ns < 0) { s--; ns += 1e9; } }
      return [s, ns];
    };
    p.hrtime.bigint = () => BigInt(Date.now() - start) * 1000000n;
    p.uptime = () => (Date.now() - start) / 1000;
    p.memoryUsage = () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0 });
    const out = (level) => Object.assign(new Writable({ write: (c, e, cb) => { console[level](String(c).replace(/\n$/, "")); cb(); } }), { isTTY: false, columns: 80 });
    p.stdout = out("log");
    p.stderr = out("error");
    p.stdin = new Readable();
    return p;
  }

  // child_process over the native spawn/runSync.
  function makeChildProcess(native) {
    const Buffer = globalThis.Buffer;
    function ChildProcess() {
      EventEmitter.call(this);
      this.stdout = new Readable();
      this.stderr = new Readable();
      this.stdin = new Writable();
      this.exitCode = null;
      this.signalCode = null;
      this.killed = false;
    }
    inherits(ChildProcess, EventEmitter);
    function argsOf(args, opts) {
      if (!Array.isArray(args)) { opts = args; args = []; }
      return [args.map(String), opts || {}];
    }
    function spawn(file, args, opts) {
      [args, opts] = argsOf(args, opts);
      if (opts.shell) {
        args = ["-c", [file].concat(args).join(" ")];
        file = typeof opts.shell === "string" ? opts.shell : "/bin/sh";
      }
      const cp = new ChildProcess();
      const h = native.spawn(file, args, { cwd: opts.cwd, env: opts.env, timeout: opts.timeout }, (kind, a, b) => {
        if (kind === "stdout") cp.stdout.push(a);
        else if (kind === "stderr") cp.stderr.push(a);
        else if (kind === "error") cp.emit("error", a);
        else if (kind === "exit") {
          cp.exitCode = a;
          cp.signalCode = b;
          cp.emit("exit", a, b);
          cp.stdout.push(null);
          cp.stderr.push(null);
          Promise.resolve().then(() => Promise.resolve()).then(() => cp.emit("close", a, b));
        }
      });
      cp.pid = h.pid;
      cp.kill = (sig) => { cp.killed = h.kill ? h.kill(sig) : false; return cp.killed; };
      cp.stdin._write = (c, e, cb) => { if (h.write) h.write(c); cb(); };
      cp.stdin._final = (cb) => { if (h.end) h.end(); cb(); };
      if (opts.signal) opts.signal.addEventListener("abort", () => cp.kill());
      return cp;
    }
    function collect(cp, opts, cb) {
      const out = [], err = [];
      const limit = opts.maxBuffer == null ? 1024 * 1024 : Number(opts.maxBuffer);
      const sizes = { stdout: 0, stderr: 0 };
      let failed = null;
      const keep = (name, parts) => (c) => {
        if (sizes[name] > limit) return;
        const room = limit - sizes[name];
        sizes[name] += c.length;
        if (c.length <= room) { parts.push(c); return; }
        parts.push(c.subarray(0, room));
        if (!failed) {
          failed = new RangeError(name + " maxBuffer length exceeded");
          failed.code = "ERR_CHILD_PROCESS_STDIO_MAXBUFFER";
        }
        cp.kill();
      };
      cp.stdout.on("data", keep("stdout", out));
      cp.stderr.on("data", keep("stderr", err));
      const text = (parts) => {
        const b = Buffer.concat(parts);
        return opts.encoding === "buffer" ? b : b.toString(opts.encoding || "utf8");
      };
      cp.on("error", (e) => { failed = failed || e; });
      cp.on("close", (code, signal) => {
        const stdout = text(out), stderr = text(err);
        let e = failed;
        if (!e && (code !== 0 || signal)) {
          e = new Error("Command failed: " + cp.spawnargs.join(" ") + (stderr ? "\n" + stderr : ""));
          e.code = code;
          e.signal = signal;
          e.killed = cp.killed || !!signal;
        }
        if (e) { e.stdout = stdout; e.stderr = stderr; }
        if (cb) cb(e, stdout, stderr);
      });
      return cp;
    }
    function execFile(file, args, opts, cb) {
      if (typeof args === "function") { cb = args; args = []; opts = {}; }
      else if (typeof opts === "function") { cb = opts; if (Array.isArray(args)) opts = {}; else { opts = args || {}; args = []; } }
      [args, opts] = argsOf(args, opts);
      const cp = spawn(file, args, opts);
      cp.spawnargs = [file].concat(args);
      return collect(cp, opts, cb);
    }
    function exec(command, opts, cb) {
      if (typeof opts === "function") { cb = opts; opts = {}; }
      opts = opts || {};
      const cp = spawn(typeof opts.shell === "string" ? opts.shell : "/bin/sh", ["-c", command], Object.assign({}, opts, { shell: false }));
      cp.spawnargs = [command];
      return collect(cp, opts, cb);
    }
    const settle = (fn) => (...args) => new Promise((resolve, reject) => {
      fn(...args, (err, stdout, stderr) => (err ? reject(err) : resolve({ stdout, stderr })));
    });
    exec[promisify.custom] = settle(exec);
    execFile[promisify.custom] = settle(execFile);
    function spawnSync(file, args, opts) {
      [args, opts] = argsOf(args, opts);
      if (opts.shell) {
        args = ["-c", [file].concat(args).join(" ")];
        file = typeof opts.shell === "string" ? opts.shell : "/bin/sh";
      }
      const r = native.runSync(file, args, { cwd: opts.cwd, env: opts.env, timeout: opts.timeout, input: opts.input, maxBuffer: opts.maxBuffer });
      if (opts.encoding && opts.encoding !== "buffer") {
        r.stdout = r.stdout.toString(opts.encoding);
        r.stderr = r.stderr.toString(opts.encoding);
      }
      r.output = [null, r.stdout, r.stderr];
      r.pid = 0;
      return r;
    }
    function syncResult(r, what, opts) {
      if (r.error) throw r.error;
      if (r.status !== 0 || r.signal) {
        const e = new Error("Command failed: " + what + "\n" + String(r.stderr));
        Object.assign(e, { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr });
        throw e;
      }
      return r.stdout;
    }
    const execFileSync = (file, args, opts) => {
      [args, opts] = argsOf(args, opts);
      return syncResult(spawnSync(file, args, opts), [file].concat(args).join(" "), opts);
    };
    const execSync = (command, opts) => {
      opts = opts || {};
      return syncResult(spawnSync(typeof opts.shell === "string" ? opts.shell : "/bin/sh", ["-c", command], Object.assign({}, opts, { shell: false })), command, opts);
    };
    const m = { spawn, exec, execFile, spawnSync, execSync, execFileSync, ChildProcess };
    m.default = m;
    return m;
  }

  function makeURL(native) {
    const m = Object.assign({}, native);
    m.fileURLToPath = (u) => {
      const url = typeof u === "string" ? new native.URL(u) : u;
      if (url.protocol !== "file:") throw new TypeError("The URL must be of scheme file");
      return decodeURIComponent(url.pathname);
    };
    m.pathToFileURL = (p) => new native.URL("file://" + encodeURI(p.startsWith("/") ? p : globalThis.process.cwd() + "/" + p));
    m.parse = (s) => {
      const u = new native.URL(s);
      return { protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash, href: u.href, query: u.search.slice(1) };
    };
    m.format = (u) => (typeof u === "string" ? u : u.href || String(u));
    m.default = m;
    return m;
  }

  function makeTimers() {
    const m = { setTimeout, setInterval, clearTimeout, clearInterval, setImmediate: (fn, ...a) => setTimeout(fn, 0, ...a), clearImmediate: clearTimeout };
    m.promises = {
      setTimeout: (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms)),
      setImmediate: (value) => new Promise((resolve) => setTimeout(() => resolve(value), 0)),
    };
    return m;
  }

  function makeAssert() {
    const fail = (msg, def) => { const e = new Error(msg || def); e.code = "ERR_ASSERTION"; throw e; };
    const assert = (v, msg) => { if (!v) fail(msg, "The expression evaluated to a falsy value"); };
    assert.ok = assert;
    assert.equal = (a, b, msg) => { if (a != b) fail(msg, inspect(a) + " == " + inspect(b)); };
    assert.strictEqual = (a, b, msg) => { if (a !== b) fail(msg, "Expected values to be strictly equal: " + inspect(a) + " !== " + inspect(b)); };
    assert.notStrictEqual = (a, b, msg) => { if (a === b) fail(msg, "Expected values to differ: " + inspect(a)); };
    assert.deepStrictEqual = (a, b, msg) => { if (JSON.stringify(a) !== JSON.stringify(b)) fail(msg, "Expected values to be deeply equal"); };
    assert.deepEqual = assert.deepStrictEqual;
    assert.fail = (msg) => fail(msg, "Failed");
    assert.throws = (fn, _e, msg) => { try { fn(); } catch (e) { return; } fail(msg, "Missing expected exception"); };
    assert.strict = assert;
    return assert;
  }

  function makeStringDecoder() {
    function StringDecoder(enc) { this.enc = enc || "utf8"; }
    StringDecoder.prototype.write = function (b) { return typeof b === "string" ? b : b.toString(this.enc); };
    StringDecoder.prototype.end = function (b) { return b ? this.write(b) : ""; };
    return { StringDecoder };
  }

  return function make(name, native, require) {
    if (name in made) return made[name];
    let m;
    switch (name) {
      case "events": m = EventEmitter; break;
      case "stream": m = Object.assign(Stream, { Stream, Readable, Writable, Transform, PassThrough, Duplex, default: Stream }); break;
      case "util": m = makeUtil(native); break;
      case "url": m = makeURL(native); break;
      case "process": m = makeProcess(native); made.process = m; break;
      case "child_process": m = makeChildProcess(native); break;
      case "timers": m = makeTimers(); break;
      case "timers/promises": m = makeTimers().promises; break;
      case "assert": m = makeAssert(); break;
      case "string_decoder": m = makeStringDecoder(); break;
      default: throw new Error("gopi has no JavaScript part for the built-in module \"" + name + "\"");
    }
    made[name] = m;
    return m;
  };
})()
