// gopi's JavaScript prelude: the helpers the eval tool's description
// lists, over the Go functions the runtime installs as __gopi.
(function (g) {
  const host = g.__gopi;
  const opts = (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});
  const later = (fn) => (...args) => {
    try {
      return Promise.resolve(fn(...args));
    } catch (e) {
      return Promise.reject(e);
    }
  };
  const show = (v) => {
    if (typeof v === "string") return v;
    if (v === undefined) return "undefined";
    if (typeof v === "function") return "[Function" + (v.name ? ": " + v.name : "") + "]";
    if (v instanceof Error) return String(v.stack || v);
    try {
      const s = JSON.stringify(v, null, 2);
      return s === undefined ? String(v) : s;
    } catch (e) {
      return String(v);
    }
  };
  // Builders of a given size refuse sizes the runtime's memory watch
  // could only stop after the allocation.
  const bound = (proto, name, size) => {
    const orig = proto[name];
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function (...args) {
        const n = size(this, ...args);
        if (n > host.maxLength) {
          throw new RangeError(name + " would build " + n + " characters or elements; a JavaScript cell may build at most " + host.maxLength + " at once");
        }
        return orig.apply(this, args);
      },
    });
  };
  bound(String.prototype, "repeat", (s, n) => String(s).length * Number(n));
  bound(String.prototype, "padStart", (_s, n) => Number(n));
  bound(String.prototype, "padEnd", (_s, n) => Number(n));
  bound(Array.prototype, "fill", (a) => Number(a.length));
  const log = (...args) => host.print(args.map(show).join(" ") + "\n");
  g.console = { log, info: log, debug: log, warn: log, error: log };
  g.print = log;
  g.display = (v) => {
    if (v && typeof v === "object" && v.type === "image" && typeof v.data === "string") {
      host.image(v.data, v.mimeType || "image/png");
    } else if (v !== null && typeof v === "object") {
      host.json(JSON.stringify(v));
    } else {
      host.print(show(v) + "\n");
    }
  };
  g.read = later((path, o) => host.read(String(path), opts(o).offset || 1, opts(o).limit || 0));
  g.write = later((path, data) => host.write(String(path), String(data), false));
  g.append = later((path, data) => host.write(String(path), String(data), true));
  const lines = (t) => (Array.isArray(t) ? t.map(String) : String(t).split("\n"));
  g.sort = later((t, o) => {
    const out = lines(t).slice().sort();
    return opts(o).reverse ? out.reverse() : out;
  });
  g.uniq = later((t) => [...new Set(lines(t))]);
  g.counter = later((items) => {
    const m = new Map();
    for (const x of lines(items)) m.set(x, (m.get(x) || 0) + 1);
    return [...m.entries()].sort((a, b) => b[1] - a[1]);
  });
  g.diff = later((a, b) => host.diff(String(a), String(b)));
  g.tree = later((path, o) => host.tree(String(path === undefined ? "." : path), opts(o).max_depth || 3, !!opts(o).show_hidden));
  g.env = later((key, value) => host.env(key === undefined ? "" : String(key), value === undefined ? null : String(value)));
  g.tool = new Proxy({}, {
    // not a thenable (await tool must not wait for ever), not JSON
    get: (_t, name) =>
      typeof name === "string" && name !== "then" && name !== "toJSON"
        ? later((args) => host.callTool(name, JSON.stringify(args || {})))
        : undefined,
  });
  g.output = async (...args) => {
    let o = {};
    if (args.length && args[args.length - 1] && typeof args[args.length - 1] === "object") o = args.pop();
    const got = [];
    for (const id of args) got.push(await g.tool.read(Object.assign({ path: "agent://" + id }, o)));
    return got.length === 1 ? got[0] : got;
  };
})(globalThis);
