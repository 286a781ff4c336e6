package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Element is one element of a Tab's page, found by a selector (Tab.Element,
// Tab.Query) or by an id of the last observation (Tab.ByID). It stays
// valid while the element is in the document.
type Element struct {
	el  *rod.Element
	tab *Tab
}

// Box is an element's border box in CSS pixels of the viewport.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Point is a position in CSS pixels of the viewport.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// DragSteps is how many mouse moves a drag takes between its ends (omp's).
const DragSteps = 12

// Element waits until selector matches an element and returns it.
func (t *Tab) Element(ctx context.Context, selector string) (*Element, error) {
	el, err := t.element(ctx, selector)
	if err != nil {
		return nil, err
	}
	return &Element{el: el, tab: t}, nil
}

// Query returns the element selector matches now, or nil when none does
// (it does not wait).
func (t *Tab) Query(ctx context.Context, selector string) (*Element, error) {
	el, err := findIn(t.page.Context(ctx).Sleeper(rod.NotFoundSleeper), selector)
	if errors.Is(err, &rod.ElementNotFoundError{}) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &Element{el: el.Sleeper(rod.DefaultSleeper), tab: t}, nil
}

// on returns the element bound to ctx.
func (e *Element) on(ctx context.Context) *rod.Element { return e.el.Context(ctx) }

// Click clicks the element's centre once it is visible and enabled.
func (e *Element) Click(ctx context.Context) error {
	return e.tab.clickElement(ctx, e.el)
}

// Hover moves the mouse over the element's centre.
func (e *Element) Hover(ctx context.Context) error { return e.tab.hoverElement(ctx, e.el) }

// Focus focuses the element.
func (e *Element) Focus(ctx context.Context) error { return e.on(ctx).Focus() }

// Type focuses the element and types text after what it holds.
func (e *Element) Type(ctx context.Context, text string) error {
	if err := e.Focus(ctx); err != nil {
		return err
	}
	return e.tab.page.Context(ctx).InsertText(text)
}

// Press focuses the element and presses key (a puppeteer key name).
func (e *Element) Press(ctx context.Context, key string) error {
	if err := e.Focus(ctx); err != nil {
		return err
	}
	return e.tab.pressKey(ctx, key)
}

// Connected reports whether the element is still in its document.
func (e *Element) Connected(ctx context.Context) bool {
	res, err := e.on(ctx).Eval(`function () { return this.isConnected }`)
	return err == nil && res.Value.Bool()
}

// InViewport reports whether some of the element is inside the viewport.
func (e *Element) InViewport(ctx context.Context) (bool, error) {
	res, err := e.on(ctx).Eval(inViewportJS)
	if err != nil {
		return false, err
	}
	return res.Value.Bool(), nil
}

// inViewportJS is true when the element (a text node: its parent) has a
// box that overlaps the viewport.
const inViewportJS = `function () {
	const el = this.nodeType === 1 ? this : this.parentElement;
	if (!el) return false;
	const r = el.getBoundingClientRect();
	return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth }`

// Box returns the element's border box, or nil when it is not rendered.
func (e *Element) Box(ctx context.Context) (*Box, error) {
	res, err := e.on(ctx).Eval(`function () {
		const el = this.nodeType === 1 ? this : this.parentElement;
		if (!el || !el.getClientRects().length) return null;
		const r = el.getBoundingClientRect();
		return {x: r.left, y: r.top, width: r.width, height: r.height} }`)
	if err != nil {
		return nil, err
	}
	if res.Value.Nil() {
		return nil, nil
	}
	var b Box
	if err := json.Unmarshal([]byte(res.Value.JSON("", "")), &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// ScrollIntoView scrolls the element to the centre of the viewport.
func (e *Element) ScrollIntoView(ctx context.Context) error {
	_, err := e.on(ctx).Eval(`function () {
		const el = this.nodeType === 1 ? this : this.parentElement;
		el.scrollIntoView({behavior: "instant", block: "center", inline: "center"}) }`)
	return err
}

// Select makes exactly the options of a <select> whose values are in
// values selected, fires input and change, and returns the values that
// ended up selected.
func (e *Element) Select(ctx context.Context, values []string) ([]string, error) {
	res, err := e.on(ctx).Eval(`function (vals) {
		if (this.tagName !== "SELECT") return null;
		const want = new Set(vals);
		for (const o of this.options) o.selected = want.has(o.value);
		const got = [...this.selectedOptions].map(o => o.value);
		this.dispatchEvent(new Event("input", {bubbles: true}));
		this.dispatchEvent(new Event("change", {bubbles: true}));
		return got }`, values)
	if err != nil {
		return nil, err
	}
	if res.Value.Nil() {
		return nil, errors.New("tab.select() needs a <select> element; use tab.fill or tab.click for other controls")
	}
	got := []string{}
	if err := json.Unmarshal([]byte(res.Value.JSON("", "")), &got); err != nil {
		return nil, err
	}
	return got, nil
}

// SetFiles puts the files at paths (absolute) into an <input type=file>.
func (e *Element) SetFiles(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return errors.New("tab.uploadFile() needs at least one file path")
	}
	res, err := e.on(ctx).Eval(`function () { return this.tagName + " " + (this.type || "") }`)
	if err != nil {
		return err
	}
	tag, typ, _ := strings.Cut(res.Value.Str(), " ")
	if tag != "INPUT" || typ != "file" {
		return fmt.Errorf(`tab.uploadFile() needs an <input type="file"> element, not <%s>`, strings.ToLower(tag))
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return fmt.Errorf("tab.uploadFile(): no file at %s; give paths of existing files (relative to the working directory)", p)
		}
	}
	return e.on(ctx).SetFiles(paths)
}

// Evaluate runs fn in the page with the element as its first argument
// and args (JSON values) after it, like Tab.Evaluate.
func (e *Element) Evaluate(ctx context.Context, fn string, args []json.RawMessage) (json.RawMessage, error) {
	res, err := e.on(ctx).Evaluate(rod.Eval(evalJS(fn, true), rawArgs(args), MaxEvalResult).ByPromise())
	return evalResult(res, err)
}

// Drag presses the left mouse button at from, moves to to in DragSteps
// steps and releases it.
func (t *Tab) Drag(ctx context.Context, from, to Point) error {
	if err := t.mouse(ctx, proto.InputDispatchMouseEventTypeMouseMoved, proto.NewPoint(from.X, from.Y), 0); err != nil {
		return err
	}
	if err := t.mouse(ctx, proto.InputDispatchMouseEventTypeMousePressed, proto.NewPoint(from.X, from.Y), 1); err != nil {
		return err
	}
	for i := 1; i <= DragSteps; i++ {
		f := float64(i) / DragSteps
		pt := proto.NewPoint(from.X+(to.X-from.X)*f, from.Y+(to.Y-from.Y)*f)
		if err := t.mouse(ctx, proto.InputDispatchMouseEventTypeMouseMoved, pt, 1); err != nil {
			return err
		}
	}
	return t.mouse(ctx, proto.InputDispatchMouseEventTypeMouseReleased, proto.NewPoint(to.X, to.Y), 0)
}
