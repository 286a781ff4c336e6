package config

import (
	"math"
	"strings"
)

// migrate rewrites the settings of one file written by an older version
// into today's keys, in place, and returns it. The rules are the
// reference's:
//
//   - queueMode becomes steeringMode (unless steeringMode is set);
//   - ask.timeout above 1000 was in milliseconds and becomes seconds;
//   - a flat theme name moves to theme.dark or theme.light (the built-in
//     "dark" and "light" are dropped: the defaults apply); isLight picks
//     the slot, nil means dark;
//   - task.isolation.enabled becomes task.isolation.mode auto/none, and
//     the old mode names worktree, fuse-overlay, fuse-projfs become rcopy,
//     overlayfs, projfs;
//   - edit mode "atom" (also in edit.modelVariants) becomes "hashline";
//   - the status line segment plan_mode is now mode;
//   - memories.enabled sets memory.backend local/off when unset;
//   - hindsight.dynamicBankId and hindsight.agentName become
//     hindsight.scoping and hindsight.bankId.
func migrate(raw map[string]any, isLight func(string) bool) map[string]any {
	if v, ok := raw["queueMode"]; ok {
		if _, set := raw["steeringMode"]; !set {
			raw["steeringMode"] = v
			delete(raw, "queueMode")
		}
	}
	if ask, ok := raw["ask"].(map[string]any); ok {
		if t, ok := toFloat(ask["timeout"]); ok && t > 1000 {
			ask["timeout"] = int(math.Floor(t/1000 + 0.5))
		}
	}
	if name, ok := raw["theme"].(string); ok {
		switch {
		case name == "dark" || name == "light":
			delete(raw, "theme")
		case isLight != nil && isLight(name):
			raw["theme"] = map[string]any{"light": name}
		default:
			raw["theme"] = map[string]any{"dark": name}
		}
	}
	if task, ok := raw["task"].(map[string]any); ok {
		if iso, ok := task["isolation"].(map[string]any); ok {
			if en, ok := iso["enabled"]; ok {
				if b, isBool := en.(bool); isBool {
					iso["mode"] = map[bool]string{true: "auto", false: "none"}[b]
				}
				delete(iso, "enabled")
			}
			if m, ok := iso["mode"].(string); ok {
				if nm, old := map[string]string{"worktree": "rcopy", "fuse-overlay": "overlayfs", "fuse-projfs": "projfs"}[m]; old {
					iso["mode"] = nm
				}
			}
		}
	}
	if edit, ok := raw["edit"].(map[string]any); ok {
		if edit["mode"] == "atom" {
			edit["mode"] = "hashline"
		}
		if mv, ok := edit["modelVariants"].(map[string]any); ok {
			for pattern, variant := range mv {
				if variant == "atom" {
					mv[pattern] = "hashline"
				}
			}
		}
	}
	if sl, ok := raw["statusLine"].(map[string]any); ok {
		for _, side := range []string{"leftSegments", "rightSegments"} {
			if segs, ok := sl[side].([]any); ok {
				for i, s := range segs {
					if s == "plan_mode" {
						segs[i] = "mode"
					}
				}
			}
		}
		if opts, ok := sl["segmentOptions"].(map[string]any); ok {
			if v, has := opts["plan_mode"]; has {
				if _, set := opts["mode"]; !set {
					opts["mode"] = v
					delete(opts, "plan_mode")
				}
			}
		}
	}
	memory, _ := raw["memory"].(map[string]any)
	if _, set := memory["backend"].(string); !set {
		if mem, ok := raw["memories"].(map[string]any); ok {
			if en, ok := mem["enabled"].(bool); ok {
				if memory == nil {
					memory = map[string]any{}
				}
				memory["backend"] = map[bool]string{true: "local", false: "off"}[en]
				raw["memory"] = memory
			}
		}
	}
	if h, ok := raw["hindsight"].(map[string]any); ok {
		if dyn, has := h["dynamicBankId"]; has {
			if _, set := h["scoping"]; !set && dyn == true {
				h["scoping"] = "per-project"
			}
			delete(h, "dynamicBankId")
		}
		if name, has := h["agentName"]; has {
			if s, ok := name.(string); ok && strings.TrimSpace(s) != "" && s != "omp" {
				if _, set := h["bankId"]; !set {
					h["bankId"] = s
				}
			}
			delete(h, "agentName")
		}
	}
	return raw
}
