package acp

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
)

// prompt runs one turn: the editor's blocks become the user's message,
// the session runs, and the answer's stop reason is mapped. A second
// prompt waits for the first (the library has already cancelled it).
func (ss *session) prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.PromptResponse, error) {
	ss.turn.Lock()
	defer ss.turn.Unlock()
	if err := ss.sess.Turn().WaitIdle(ctx); err != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	text, images := promptText(blocks)
	if strings.TrimSpace(text) == "" && len(images) == 0 {
		return sdk.PromptResponse{}, invalidParams("the prompt is empty: send text, an image or a file")
	}
	ss.mu.Lock()
	ss.cancelled = false
	ss.mu.Unlock()
	before := len(ss.sess.Messages())
	err := ss.sess.Prompt(ctx, text, agentsession.PromptOptions{Images: images})
	ss.endTurn()
	ss.sendTitle()
	ss.mu.Lock()
	cancelled := ss.cancelled || ctx.Err() != nil
	ss.mu.Unlock()
	if cancelled {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if err != nil {
		return sdk.PromptResponse{}, failed(err)
	}
	var last *ai.AssistantMessage
	if msgs := ss.sess.Messages(); len(msgs) > before {
		last = ss.sess.LastAssistant()
	}
	reason, err := stopReason(last)
	if err != nil {
		return sdk.PromptResponse{}, failed(err)
	}
	return sdk.PromptResponse{StopReason: reason}, nil
}

// cancel aborts the current run.
func (ss *session) cancel() {
	ss.mu.Lock()
	ss.cancelled = true
	ss.mu.Unlock()
	ss.sess.Abort()
}

// sendTitle tells the editor the session's title once it has one.
func (ss *session) sendTitle() {
	if name := ss.sess.Store().Name(); name != "" {
		ss.srv.send(ss.id, sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{Title: sdk.Ptr(name)}})
	}
}

// refusalMarks are the phrases gopi's providers put in the error message
// of an answer the model refused or a safety filter stopped (core/ai maps
// those stops to "error" with such a message).
var refusalMarks = []string{"refused to answer", "safety filter", "content filter"}

// stopReason maps the run's last answer to the protocol's stop reason; a
// failed answer is an error carrying the provider's message.
func stopReason(m *ai.AssistantMessage) (sdk.StopReason, error) {
	if m == nil {
		return sdk.StopReasonEndTurn, nil
	}
	switch m.StopReason {
	case ai.StopReasonLength:
		return sdk.StopReasonMaxTokens, nil
	case ai.StopReasonAborted:
		return sdk.StopReasonCancelled, nil
	case ai.StopReasonError:
		low := strings.ToLower(m.ErrorMessage)
		for _, mark := range refusalMarks {
			if strings.Contains(low, mark) {
				return sdk.StopReasonRefusal, nil
			}
		}
		msg := m.ErrorMessage
		if msg == "" {
			msg = "unknown error"
		}
		return "", fmt.Errorf("the model request failed: %s", msg)
	}
	return sdk.StopReasonEndTurn, nil
}

// promptText turns the editor's blocks into the user's text and images:
// text as it is; an embedded text resource as a <file> block (as the CLI
// inlines @file) placed before the text, and named where it was
// mentioned; a resource link named by its path, for the model to read;
// images attached; audio left out with a note.
func promptText(blocks []sdk.ContentBlock) (string, []*ai.ImageContent) {
	var files, body strings.Builder
	var images []*ai.ImageContent
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			body.WriteString(b.Text.Text)
		case b.Image != nil:
			images = append(images, &ai.ImageContent{Data: b.Image.Data, MIMEType: b.Image.MimeType})
		case b.ResourceLink != nil:
			body.WriteString(mention(b.ResourceLink.Uri))
		case b.Resource != nil:
			r := b.Resource.Resource
			switch {
			case r.TextResourceContents != nil:
				name := uriPath(r.TextResourceContents.Uri)
				fmt.Fprintf(&files, "<file name=\"%s\">\n%s\n</file>\n", name, strings.TrimSuffix(r.TextResourceContents.Text, "\n"))
				body.WriteString(mention(r.TextResourceContents.Uri))
			case r.BlobResourceContents != nil:
				c := r.BlobResourceContents
				if c.MimeType != nil && strings.HasPrefix(*c.MimeType, "image/") {
					images = append(images, &ai.ImageContent{Data: c.Blob, MIMEType: *c.MimeType})
					fmt.Fprintf(&files, "<file name=\"%s\"></file>\n", uriPath(c.Uri))
				} else {
					fmt.Fprintf(&files, "<file name=\"%s\">(binary content not shown)</file>\n", uriPath(c.Uri))
				}
				body.WriteString(mention(c.Uri))
			}
		case b.Audio != nil:
			body.WriteString("[audio left out: gopi does not take audio]")
		}
	}
	return files.String() + body.String(), images
}

// mention names a file in the user's text: @path for file URIs, the URI
// otherwise.
func mention(uri string) string {
	return "@" + uriPath(uri)
}

// uriPath returns the path of a file:// URI, or the URI itself.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return u.Path
}
