package oauth

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// errNoPaste ends the paste prompt after pasteTries inputs without a code;
// the sign-in still takes the browser's callback.
var errNoPaste = errors.New("nothing pasted held an authorization code")

// pasteTries bounds how often the paste prompt asks again after input that
// holds no code, so a front end that keeps answering nothing cannot spin.
const pasteTries = 5

// codeGrant is what the browser step of an authorization-code sign-in
// yields: the code, the state it came with and the redirect URI the token
// request must repeat.
type codeGrant struct {
	Code, State, RedirectURI string
}

// browserStep is one provider's browser step: where the redirect comes back
// to, the authorization URL for a state and redirect URI, and what to tell
// the user beside it.
type browserStep struct {
	Provider     string
	Callback     Callback
	Instructions string
	AuthURL      func(state, redirectURI string) string
}

// run shows the authorization URL and waits for the code: from the local
// callback server, or pasted by the user (a headless machine whose browser
// runs elsewhere), whichever comes first. A callback or paste with the
// wrong state fails the sign-in (CSRF).
func (b browserStep) run(ctx context.Context, ui UI) (codeGrant, error) {
	state := newState()
	srv, redirect, note := startCallback(b.Provider, b.Callback, state)
	defer srv.close()
	if note != "" {
		ui.Progress(note)
	}
	ui.Auth(AuthInfo{URL: b.AuthURL(state, redirect), Instructions: b.Instructions})
	ui.Progress("Waiting for the browser sign-in…")

	wait := b.Callback.Wait
	if wait <= 0 {
		wait = DefaultCallbackWait
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()

	pctx, stopPrompt := context.WithCancel(wctx)
	pasted := make(chan callbackResult, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		pasted <- b.askPaste(pctx, ui, state)
	}()
	defer func() {
		stopPrompt()
		wg.Wait()
	}()

	var fromServer <-chan callbackResult
	if srv != nil {
		fromServer = srv.results
	}
	for {
		var res callbackResult
		select {
		case res = <-fromServer:
		case res = <-pasted:
			if res.err != nil && !isSignInError(res.err) && wctx.Err() == nil {
				if fromServer != nil {
					pasted = nil // no paste to be had; keep waiting for the browser
					continue
				}
				res.err = &Error{Provider: b.Provider, Step: "sign-in", Detail: "no authorization code: " + oneLine(res.err.Error())}
			}
		case <-wctx.Done():
		}
		if err := ctx.Err(); err != nil {
			return codeGrant{}, err
		}
		if res.code == "" && !isSignInError(res.err) { // the wait ran out
			return codeGrant{}, &Error{Provider: b.Provider, Step: "sign-in", Detail: fmt.Sprintf("no answer from the browser within %s", wait)}
		}
		if res.err != nil {
			return codeGrant{}, res.err
		}
		return codeGrant{Code: res.code, State: res.state, RedirectURI: redirect}, nil
	}
}

// askPaste asks for the code until the user pastes one, the prompt fails or
// the sign-in ends (ctx).
func (b browserStep) askPaste(ctx context.Context, ui UI, state string) callbackResult {
	for range pasteTries {
		line, err := ui.Prompt(ctx, Prompt{Message: pasteMessage})
		if err != nil {
			return callbackResult{err: err}
		}
		code, got := parsePasted(line)
		if code == "" {
			ui.Progress("That holds no authorization code; paste the code or the whole address the browser ended on.")
			continue
		}
		return checkCode(b.Provider, code, got, state, false)
	}
	return callbackResult{err: errNoPaste}
}

// isSignInError reports whether err is the sign-in's own verdict (as opposed
// to a front end that could not prompt).
func isSignInError(err error) bool {
	_, ok := err.(*Error)
	return ok
}
