package headless

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// Mouse and keyboard events are sent here rather than through rod's Mouse
// and Keyboard: those keep the context of the page they were made with,
// so an event whose handler never returns (a click on a button running
// while(true){}) would block past the call's deadline and hold their
// locks for every later call. Each event here is bounded by its ctx.

// mouse sends one mouse event of kind at pt; buttons is the pressed set
// after it (1: the left button).
func (t *Tab) mouse(ctx context.Context, kind proto.InputDispatchMouseEventType, pt proto.Point, buttons int) error {
	ev := proto.InputDispatchMouseEvent{Type: kind, X: pt.X, Y: pt.Y, Buttons: &buttons}
	if kind != proto.InputDispatchMouseEventTypeMouseMoved {
		ev.Button, ev.ClickCount = proto.InputMouseButtonLeft, 1
	} else if buttons != 0 {
		ev.Button = proto.InputMouseButtonLeft
	}
	return ev.Call(t.page.Context(ctx))
}

// clickAt moves the mouse to pt and clicks the left button there.
func (t *Tab) clickAt(ctx context.Context, pt proto.Point) error {
	if err := t.mouse(ctx, proto.InputDispatchMouseEventTypeMouseMoved, pt, 0); err != nil {
		return err
	}
	if err := t.mouse(ctx, proto.InputDispatchMouseEventTypeMousePressed, pt, 1); err != nil {
		return err
	}
	return t.mouse(ctx, proto.InputDispatchMouseEventTypeMouseReleased, pt, 0)
}

// key presses and releases k where the focus is.
func (t *Tab) key(ctx context.Context, k input.Key) error {
	p := t.page.Context(ctx)
	if err := k.Encode(proto.InputDispatchKeyEventTypeKeyDown, 0).Call(p); err != nil {
		return err
	}
	return k.Encode(proto.InputDispatchKeyEventTypeKeyUp, 0).Call(p)
}

// clickElement waits, within ctx, until el can be clicked (in the
// viewport, not covered, enabled) and clicks its centre.
func (t *Tab) clickElement(ctx context.Context, el *rod.Element) error {
	pt, err := el.Context(ctx).WaitInteractable()
	if err != nil {
		return err
	}
	if err := el.Context(ctx).WaitEnabled(); err != nil {
		return err
	}
	return t.clickAt(ctx, *pt)
}

// hoverElement waits until el can be pointed at and moves the mouse to
// its centre.
func (t *Tab) hoverElement(ctx context.Context, el *rod.Element) error {
	pt, err := el.Context(ctx).WaitInteractable()
	if err != nil {
		return err
	}
	return t.mouse(ctx, proto.InputDispatchMouseEventTypeMouseMoved, *pt, 0)
}
