package rpcclient

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// A host_tool_cancel that follows its host_tool_call at once cancels the
// tool's context: the watch for it is set up before the next frame is
// read (it used to be set up by the goroutine serving the call, which
// often started after the cancel had been dispatched to nobody).
func TestCancelRightAfterCall(t *testing.T) {
	for i := 0; i < 20; i++ {
		fromGopi, gopiOut := io.Pipe()
		toGopi, gopiIn := io.Pipe()
		go io.Copy(io.Discard, toGopi)
		c := New(fromGopi, gopiIn)
		cancelled := make(chan bool, 1)
		c.mu.Lock()
		c.tools["slow"] = func(ctx context.Context, _ map[string]any, _ func(ToolResult)) (ToolResult, error) {
			select {
			case <-ctx.Done():
				cancelled <- true
			case <-time.After(2 * time.Second):
				cancelled <- false
			}
			return ToolResult{}, ctx.Err()
		}
		c.mu.Unlock()
		w := bufio.NewWriter(gopiOut)
		w.WriteString(`{"type":"host_tool_call","id":"host_1","toolCallId":"t1","toolName":"slow","arguments":{}}` + "\n")
		w.WriteString(`{"type":"host_tool_cancel","id":"host_cancel_2","targetId":"host_1"}` + "\n")
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !<-cancelled {
			t.Fatalf("try %d: the tool was not cancelled", i)
		}
		gopiOut.Close()
		gopiIn.Close()
		<-c.Done()
	}
}

// The watch ends with the call: no listener is left behind.
func TestCallWatchIsReleased(t *testing.T) {
	fromGopi, gopiOut := io.Pipe()
	toGopi, gopiIn := io.Pipe()
	results := bufio.NewReader(toGopi)
	c := New(fromGopi, gopiIn)
	c.mu.Lock()
	c.tools["quick"] = func(context.Context, map[string]any, func(ToolResult)) (ToolResult, error) {
		return TextResult("ok"), nil
	}
	c.mu.Unlock()
	io.WriteString(gopiOut, `{"type":"host_tool_call","id":"host_1","toolCallId":"t1","toolName":"quick","arguments":{}}`+"\n")
	line, err := results.ReadString('\n')
	if err != nil || !strings.Contains(line, `"host_tool_result"`) {
		t.Fatalf("result %q %v", line, err)
	}
	testwait.Until(t, "the call's listeners to go", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.listeners) == 0
	})
	gopiOut.Close()
	gopiIn.Close()
	<-c.Done()
}
