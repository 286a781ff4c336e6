package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
)

// ObserveOptions say which elements an observation lists.
type ObserveOptions struct {
	IncludeAll   bool // every accessible node, not only the interactive ones
	ViewportOnly bool // only elements that overlap the viewport
	// MaxElements bounds the elements listed (the first ones in document
	// order); 0 is no bound. A huge page's snapshot stays small, and the
	// elements past it are not resolved in the page at all.
	MaxElements int
	// MaxText bounds each name, value and description, in characters;
	// longer ones are cut with "…". 0 is no bound.
	MaxText int
}

// ObservedElement is one element of an observation; ID is what ByID
// takes until the next observation or navigation.
type ObservedElement struct {
	ID           int      `json:"id"`
	Role         string   `json:"role"`
	Name         string   `json:"name,omitempty"`
	Value        any      `json:"value,omitempty"`
	Description  string   `json:"description,omitempty"`
	KeyShortcuts string   `json:"keyshortcuts,omitempty"`
	States       []string `json:"states"`
}

// Scroll is the page's scroll position and size.
type Scroll struct {
	X            float64 `json:"x"`
	Y            float64 `json:"y"`
	Width        float64 `json:"width"`
	Height       float64 `json:"height"`
	ScrollWidth  float64 `json:"scrollWidth"`
	ScrollHeight float64 `json:"scrollHeight"`
}

// Observation is the accessibility snapshot of a page: its address,
// title, viewport, scroll state and the elements with their ids.
type Observation struct {
	URL      string            `json:"url"`
	Title    string            `json:"title,omitempty"`
	Viewport Viewport          `json:"viewport"`
	Scroll   Scroll            `json:"scroll"`
	Elements []ObservedElement `json:"elements"`
	// Note says what the bounds of ObserveOptions left out; "" when
	// nothing was.
	Note string `json:"note,omitempty"`
}

// interactiveRoles are the accessibility roles an observation lists
// without IncludeAll (omp's set).
var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "combobox": true, "listbox": true, "option": true,
	"checkbox": true, "radio": true, "switch": true, "tab": true, "menuitem": true, "menuitemcheckbox": true,
	"menuitemradio": true, "slider": true, "spinbutton": true, "searchbox": true, "treeitem": true,
}

// observeGroup is the CDP object group holding the observed elements, so
// they are released together.
const observeGroup = "gopi-observe"

// elementCache maps the ids of the last observation to their elements.
type elementCache struct {
	mu  sync.Mutex
	ids map[int]proto.RuntimeRemoteObjectID
}

// clear forgets the ids and releases their objects in the page.
func (t *Tab) clearElements(ctx context.Context) {
	t.cache.mu.Lock()
	had := len(t.cache.ids) > 0
	t.cache.ids = nil
	t.cache.mu.Unlock()
	if had {
		_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: observeGroup}.Call(t.page.Context(ctx))
	}
}

// axNode is what an observation reads of one accessibility node.
type axNode struct {
	role, name, description, keyShortcuts string
	value                                 any
	props                                 map[proto.AccessibilityAXPropertyName]any
}

// readAX decodes n's role, texts and properties.
func readAX(n *proto.AccessibilityAXNode) axNode {
	str := func(v *proto.AccessibilityAXValue) string {
		if v == nil {
			return ""
		}
		s, _ := v.Value.Val().(string)
		return s
	}
	a := axNode{role: str(n.Role), name: str(n.Name), description: str(n.Description),
		props: map[proto.AccessibilityAXPropertyName]any{}}
	if n.Value != nil {
		a.value = n.Value.Value.Val()
		if s, ok := a.value.(string); ok && s == "" {
			a.value = nil
		}
	}
	for _, p := range n.Properties {
		if p.Value != nil {
			a.props[p.Name] = p.Value.Value.Val()
		}
	}
	a.keyShortcuts, _ = a.props["keyshortcuts"].(string)
	return a
}

// clip cuts the node's name, value and description to max characters
// (0: no bound) and returns how many it cut.
func (a *axNode) clip(max int) int {
	if max <= 0 {
		return 0
	}
	n := 0
	for _, s := range []*string{&a.name, &a.description} {
		if c, ok := clipText(*s, max); ok {
			*s, n = c, n+1
		}
	}
	if v, isString := a.value.(string); isString {
		if c, ok := clipText(v, max); ok {
			a.value, n = c, n+1
		}
	}
	return n
}

// clipText is s cut to max characters with "…" when it is longer.
func clipText(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	i, k := 0, 0
	for i < len(s) && k < max {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	if i == len(s) {
		return s, false
	}
	return s[:i] + "…", true
}

// observeNote says what an observation's bounds left out.
func observeNote(listed, skipped, cut int, o ObserveOptions) string {
	var parts []string
	if skipped > 0 {
		parts = append(parts, fmt.Sprintf("listed the first %d of %d elements (the limit of one observation); narrow it with viewportOnly after scrolling, or find elements with a selector", listed, listed+skipped))
	}
	if cut > 0 {
		parts = append(parts, fmt.Sprintf("cut %d names, values or descriptions to %d characters", cut, o.MaxText))
	}
	if len(parts) == 0 {
		return ""
	}
	return "The page is large: " + strings.Join(parts, "; ") + "."
}

// flag is a boolean property that is true (others are left out, as
// puppeteer's snapshot leaves them out).
func (a axNode) flag(name proto.AccessibilityAXPropertyName) bool {
	v, ok := a.props[name]
	if b, isBool := v.(bool); isBool {
		return b
	}
	return ok && v == "true"
}

// tristate is a checked/pressed property as text ("true", "false",
// "mixed"); ok is false when the node has none.
func (a axNode) tristate(name proto.AccessibilityAXPropertyName) (string, bool) {
	v, ok := a.props[name]
	if !ok {
		return "", false
	}
	return fmt.Sprint(v), true
}

// interactive reports whether the node is one an observation lists by
// default: an interactive role, or a control state.
func (a axNode) interactive() bool {
	if interactiveRoles[a.role] {
		return true
	}
	_, checked := a.tristate("checked")
	_, pressed := a.tristate("pressed")
	return checked || pressed || a.flag("selected") || a.flag("expanded") || (a.flag("focused") && a.role != "RootWebArea")
}

// states lists the node's states as omp writes them.
func (a axNode) states() []string {
	states := []string{}
	if a.flag("disabled") {
		states = append(states, "disabled")
	}
	for _, p := range []proto.AccessibilityAXPropertyName{"checked", "pressed"} {
		if v, ok := a.tristate(p); ok {
			states = append(states, string(p)+"="+v)
		}
	}
	for _, p := range []proto.AccessibilityAXPropertyName{"selected", "expanded"} {
		if a.flag(p) {
			states = append(states, string(p)+"=true")
		}
	}
	for _, p := range []proto.AccessibilityAXPropertyName{"required", "readonly", "multiselectable", "multiline", "modal"} {
		if a.flag(p) {
			states = append(states, string(p))
		}
	}
	if a.flag("focused") && a.role != "RootWebArea" {
		states = append(states, "focused")
	}
	return states
}

// Observe takes the page's accessibility snapshot: the interactive
// elements (every accessible node with IncludeAll), in document order,
// numbered from 1. The ids replace those of the previous observation;
// ByID resolves them until the next one or a navigation.
func (t *Tab) Observe(ctx context.Context, o ObserveOptions) (*Observation, error) {
	t.clearElements(ctx)
	p := t.page.Context(ctx)
	tree, err := proto.AccessibilityGetFullAXTree{}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("accessibility snapshot: %w", err)
	}
	byID := make(map[proto.AccessibilityAXNodeID]*proto.AccessibilityAXNode, len(tree.Nodes))
	var root *proto.AccessibilityAXNode
	for _, n := range tree.Nodes {
		byID[n.NodeID] = n
		if root == nil && n.ParentID == "" {
			root = n
		}
	}
	if root == nil {
		return nil, errors.New("the page has no accessibility tree yet; wait for it to load and observe again")
	}
	obs := &Observation{Elements: []ObservedElement{}, Viewport: t.viewport}
	ids := map[int]proto.RuntimeRemoteObjectID{}
	skipped, cut := 0, 0
	var walk func(n *proto.AccessibilityAXNode) error
	walk = func(n *proto.AccessibilityAXNode) error {
		a := readAX(n)
		listed := !n.Ignored && n.BackendDOMNodeID != 0 && a.role != "InlineTextBox" && (o.IncludeAll || a.interactive())
		if listed && o.MaxElements > 0 && len(ids) >= o.MaxElements {
			skipped++
		} else if listed {
			cut += a.clip(o.MaxText)
			obj, err := proto.DOMResolveNode{BackendNodeID: n.BackendDOMNodeID, ObjectGroup: observeGroup}.Call(p)
			if err == nil {
				keep := true
				if o.ViewportOnly {
					res, err := proto.RuntimeCallFunctionOn{ObjectID: obj.Object.ObjectID, FunctionDeclaration: inViewportJS,
						ReturnByValue: true}.Call(p)
					keep = err == nil && res.Result.Value.Bool()
				}
				if keep {
					id := len(ids) + 1
					ids[id] = obj.Object.ObjectID
					obs.Elements = append(obs.Elements, ObservedElement{ID: id, Role: a.role, Name: a.name, Value: a.value,
						Description: a.description, KeyShortcuts: a.keyShortcuts, States: a.states()})
				}
			} else if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		for _, c := range n.ChildIDs {
			if child := byID[c]; child != nil {
				if err := walk(child); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	obs.Note = observeNote(len(obs.Elements), skipped, cut, o)
	t.cache.mu.Lock()
	t.cache.ids = ids
	t.cache.mu.Unlock()
	res, err := p.Eval(`() => ({x: scrollX, y: scrollY, width: innerWidth, height: innerHeight,
		scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight})`)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(res.Value.JSON("", "")), &obs.Scroll); err != nil {
		return nil, err
	}
	info, err := t.info(ctx)
	if err != nil {
		return nil, err
	}
	obs.URL, obs.Title = info.URL, info.Title
	return obs, nil
}

// ByID returns the element the last observation numbered id. An id not
// in it, or whose element has left the document (the ids are then all
// dropped), is an error telling to observe again.
func (t *Tab) ByID(ctx context.Context, id int) (*Element, error) {
	t.cache.mu.Lock()
	obj, ok := t.cache.ids[id]
	t.cache.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("Unknown element id %d. Run tab.observe() to refresh the element list.", id)
	}
	el, err := t.page.Context(ctx).ElementFromObject(&proto.RuntimeRemoteObject{ObjectID: obj})
	if err == nil {
		e := &Element{el: el, tab: t}
		if e.Connected(ctx) {
			return e, nil
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	t.clearElements(ctx)
	return nil, fmt.Errorf("Element id %d is stale. Run tab.observe() again.", id)
}
