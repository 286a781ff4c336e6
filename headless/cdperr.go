package headless

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/cdp"
)

// ErrPageGone says that a tab's page no longer exists or no longer runs:
// it closed itself (window.close()), or its renderer crashed.
var ErrPageGone = errors.New("the page is gone (it closed itself or its renderer crashed): open the tab again")

// Explain turns a raw DevTools protocol error (Chromium's JSON-RPC code and
// message) into one that says what happened and what to do; other errors
// are returned as they are.
func Explain(err error) error {
	var ce *cdp.Error
	if !errors.As(err, &ce) {
		return err
	}
	switch msg := ce.Message; {
	case strings.Contains(msg, "No target with given id"), strings.Contains(msg, "Session with given id not found"),
		strings.Contains(msg, "Target closed"), strings.Contains(msg, "No session with given id"):
		return ErrPageGone
	case ce.Code == -32603:
		return errors.New("the browser failed the request (the page's renderer probably crashed or went away meanwhile): open the tab again")
	case strings.Contains(msg, "Cannot find context with specified id"), strings.Contains(msg, "Execution context was destroyed"):
		return errors.New("the page navigated away while the call ran: wait for the navigation (tab.waitForUrl) and try again")
	default:
		detail := strings.TrimSpace(msg + " " + ce.Data)
		return fmt.Errorf("the browser refused the request: %s", detail)
	}
}
