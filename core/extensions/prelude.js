// The environment gopi gives extension modules before they load: a
// console, a schema builder with zod's surface (pi.zod) and TypeBox's
// (pi.typebox) that yields JSON Schema, and the modules an extension may
// import from omp's packages. Written for gopi; it holds no code of those
// libraries.
(function (g) {
  "use strict";
  const fmt = (args) => args.map((a) => (typeof a === "string" ? a : (() => { try { return JSON.stringify(a); } catch (e) { return String(a); } })())).join(" ");
  g.console = {
    log: (...a) => __gopiLog("info", fmt(a)),
    info: (...a) => __gopiLog("info", fmt(a)),
    debug: (...a) => __gopiLog("debug", fmt(a)),
    warn: (...a) => __gopiLog("warn", fmt(a)),
    error: (...a) => __gopiLog("error", fmt(a)),
  };

  // A schema: its JSON Schema, whether it may be left out, and the
  // chainable modifiers of zod.
  function schema(json, extra) {
    const s = Object.assign({ _json: json, _optional: false }, extra || {});
    s.optional = () => schema(s._json, { _optional: true });
    s.nullish = s.optional;
    s.nullable = () => schema({ anyOf: [s._json, { type: "null" }] }, { _optional: s._optional });
    s.describe = (d) => schema(Object.assign({}, s._json, { description: String(d) }), { _optional: s._optional });
    s.default = (v) => schema(Object.assign({}, s._json, { default: v }), { _optional: true });
    s.min = (n) => schema(Object.assign({}, s._json, bound(s._json, "min", n)), { _optional: s._optional });
    s.max = (n) => schema(Object.assign({}, s._json, bound(s._json, "max", n)), { _optional: s._optional });
    s.int = () => schema(Object.assign({}, s._json, { type: "integer" }), { _optional: s._optional });
    s.positive = () => s.min(1);
    s.nonnegative = () => s.min(0);
    s.nonempty = () => s.min(1);
    s.parse = (v) => v;
    s.safeParse = (v) => ({ success: true, data: v });
    s.toJSONSchema = () => s._json;
    return s;
  }
  function bound(json, which, n) {
    const kind = json.type === "string" ? "Length" : json.type === "array" ? "Items" : "";
    if (kind) return { [which + kind]: n };
    return { [which === "min" ? "minimum" : "maximum"]: n };
  }
  function objectOf(shape) {
    const properties = {};
    const required = [];
    for (const k of Object.keys(shape || {})) {
      const v = toSchema(shape[k]);
      properties[k] = v.json;
      if (!v.optional) required.push(k);
    }
    const json = { type: "object", properties };
    if (required.length) json.required = required;
    return json;
  }
  // toSchema reads any accepted schema: one of ours, a TypeBox-shaped
  // object, or plain JSON Schema.
  function toSchema(v) {
    if (v && typeof v === "object" && "_json" in v) return { json: v._json, optional: v._optional };
    if (v && typeof v === "object") {
      const optional = !!v.__optional;
      const json = Object.assign({}, v);
      delete json.__optional;
      return { json, optional };
    }
    return { json: {}, optional: false };
  }
  const z = {
    string: () => schema({ type: "string" }),
    number: () => schema({ type: "number" }),
    int: () => schema({ type: "integer" }),
    boolean: () => schema({ type: "boolean" }),
    any: () => schema({}),
    unknown: () => schema({}),
    null: () => schema({ type: "null" }),
    literal: (v) => schema({ const: v, type: typeof v === "number" ? "number" : typeof v === "boolean" ? "boolean" : "string" }),
    enum: (vals) => schema({ type: "string", enum: Array.from(vals) }),
    array: (item) => schema({ type: "array", items: toSchema(item).json }),
    object: (shape) => {
      const s = schema(objectOf(shape));
      s.shape = shape;
      s.strict = () => schema(Object.assign({}, s._json, { additionalProperties: false }));
      s.passthrough = () => s;
      return s;
    },
    record: (a, b) => schema({ type: "object", additionalProperties: toSchema(b === undefined ? a : b).json }),
    union: (opts) => schema({ anyOf: opts.map((o) => toSchema(o).json) }),
    optional: (s) => s.optional(),
  };
  z.coerce = { number: z.number, string: z.string, boolean: z.boolean };
  const Type = {
    Object: (props, opts) => Object.assign(objectOf(props), opts || {}),
    String: (opts) => Object.assign({ type: "string" }, opts || {}),
    Number: (opts) => Object.assign({ type: "number" }, opts || {}),
    Integer: (opts) => Object.assign({ type: "integer" }, opts || {}),
    Boolean: (opts) => Object.assign({ type: "boolean" }, opts || {}),
    Array: (item, opts) => Object.assign({ type: "array", items: toSchema(item).json }, opts || {}),
    Optional: (s) => Object.assign({}, toSchema(s).json, { __optional: true }),
    Literal: (v, opts) => Object.assign({ const: v }, opts || {}),
    Union: (items, opts) => Object.assign({ anyOf: items.map((i) => toSchema(i).json) }, opts || {}),
    Any: (opts) => Object.assign({}, opts || {}),
    Unknown: (opts) => Object.assign({}, opts || {}),
    Record: (k, v, opts) => Object.assign({ type: "object", additionalProperties: toSchema(v).json }, opts || {}),
  };
  g.__gopiZod = z;
  // pi.zod is the module: { z } as omp's extensions destructure it, with
  // z's builders on it too.
  g.__gopiZodModule = Object.assign({ z, default: z }, z);
  g.__gopiTypebox = { Type };
  // StringEnum is omp's typebox helper for a string limited to values
  // (pi.pi.StringEnum); Type.Unsafe is how it is built there.
  Type.Unsafe = (opts) => Object.assign({}, opts || {});
  g.__gopiStringEnum = (values, opts) => Object.assign({ type: "string", enum: Array.from(values) }, opts || {});
  g.__gopiSchemaJSON = (v) => JSON.stringify(toSchema(v).json);
  // tuiShim stands in for omp's pi-tui: key names built as gopi's
  // shortcuts spell them, and components that hold what they are given
  // (gopi draws its own dialogs; an extension's custom component is not
  // shown). What examples and common extensions import; nothing more.
  const mod = (m) => (k) => m + "+" + k;
  const Key = { ctrl: mod("ctrl"), shift: mod("shift"), alt: mod("alt"), super: mod("super"),
    ctrlShift: mod("ctrl+shift"), ctrlAlt: mod("ctrl+alt"), shiftAlt: mod("alt+shift"),
    escape: "escape", enter: "enter", tab: "tab", space: "space", backspace: "backspace",
    up: "up", down: "down", left: "left", right: "right" };
  class Component { constructor(...args) { this.args = args; this.children = []; }
    addChild(c) { this.children.push(c); } removeChild(c) { this.children = this.children.filter((x) => x !== c); }
    clear() { this.children = []; } invalidate() {} render() { return []; } handleInput() {} }
  const tuiShim = { Key, Component, Container: class extends Component {}, Box: class extends Component {},
    Text: class extends Component {}, Spacer: class extends Component {}, Markdown: class extends Component {},
    SelectList: class extends Component {}, SettingsList: class extends Component {}, Input: class extends Component {},
    matchesKey: (data, id) => data === id, visibleWidth: (s) => Array.from(String(s)).length,
    truncateToWidth: (s, w) => Array.from(String(s)).slice(0, w).join("") };
  // __gopiESMView makes the ESM view of a built-in module (esmview.go):
  // what esbuild's __toESM makes of it — a default member holding the
  // module and a getter for each of its own members — frozen, as the
  // view is shared by every extension of the engine.
  g.__gopiESMView = (mod) => {
    const view = Object.create(Object.getPrototypeOf(mod));
    Object.defineProperty(view, "default", { value: mod, enumerable: true });
    for (const key of Object.getOwnPropertyNames(mod)) {
      if (key === "default") continue;
      const d = Object.getOwnPropertyDescriptor(mod, key);
      Object.defineProperty(view, key, { get: () => mod[key], enumerable: !d || d.enumerable });
    }
    return Object.freeze(view);
  };
  g.__gopiHostModule = (name) => {
    if (name === "zod") return { z, default: z };
    if (name.indexOf("@sinclair/typebox") === 0 || name === "typebox") return { Type, default: Type };
    if (/\/pi-tui$/.test(name)) return tuiShim;
    // omp's packages (and pi's, under their old and new scopes): the
    // values an extension reaches through pi.*, and the few helpers
    // community extensions import directly.
    return { z, Type, StringEnum: g.__gopiStringEnum, getAgentDir: () => __gopiAgentDir(),
      parseFrontmatter: (text) => __gopiParseFrontmatter(String(text)) };
  };
})(globalThis);
