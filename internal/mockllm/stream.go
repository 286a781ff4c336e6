package mockllm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// stopStream is panicked by streamWriter when the stream must end early (a
// stall the client gave up on, or a failed write) and recovered by finish.
type stopStream struct{}

// streamWriter writes SSE frames, applying a turn's delay, stall and
// disconnect settings. Encoders call event/data and never see the failure
// modes: when the stream must end, the writer unwinds to finish.
type streamWriter struct {
	w      http.ResponseWriter
	r      *http.Request
	flush  http.Flusher
	turn   *Turn
	frames int
	deltas int
}

// newStreamWriter starts a 200 response of the given content type
// ("text/event-stream" for the SSE formats).
func newStreamWriter(w http.ResponseWriter, r *http.Request, turn *Turn, contentType string) *streamWriter {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	if fl != nil {
		fl.Flush()
	}
	return &streamWriter{w: w, r: r, flush: fl, turn: turn}
}

// finish recovers an early end of stream.
func (s *streamWriter) finish() {
	if v := recover(); v != nil {
		if _, ok := v.(stopStream); !ok {
			panic(v)
		}
	}
}

// event writes one SSE frame with an event name (none when name is "") and
// a JSON data payload.
func (s *streamWriter) event(name string, payload any) {
	data, err := json.Marshal(payload)
	if err != nil {
		panic(fmt.Sprintf("mockllm: encoding %s frame: %v", name, err))
	}
	s.frame(name, string(data))
}

// delta writes a frame carrying content (a text, thinking or argument delta,
// or a whole Gemini function call) and applies StallAfterDeltas.
func (s *streamWriter) delta(name string, payload any) {
	s.event(name, payload)
	s.countDelta()
}

// countDelta counts a frame that carried content and applies
// StallAfterDeltas.
func (s *streamWriter) countDelta() {
	s.deltas++
	if s.turn.StallAfterDeltas > 0 && s.deltas >= s.turn.StallAfterDeltas {
		<-s.r.Context().Done()
		panic(stopStream{})
	}
}

// frame writes one raw SSE frame.
func (s *streamWriter) frame(name, data string) {
	if name != "" {
		s.write([]byte(fmt.Sprintf("event: %s\ndata: %s\n\n", name, data)))
	} else {
		s.write([]byte(fmt.Sprintf("data: %s\n\n", data)))
	}
}

// write sends one frame's bytes (an SSE frame, or a binary event-stream
// message), first applying the turn's stall, disconnect and delay
// settings, and counts it.
func (s *streamWriter) write(frame []byte) {
	if s.turn.StallAfter > 0 && s.frames >= s.turn.StallAfter {
		<-s.r.Context().Done()
		panic(stopStream{})
	}
	if s.turn.DisconnectAfter > 0 && s.frames >= s.turn.DisconnectAfter {
		// net/http closes the connection without finishing the chunked
		// body, so the client sees an unexpected EOF mid-stream.
		panic(http.ErrAbortHandler)
	}
	if d := s.turn.ChunkDelay; d > 0 {
		timer := time.NewTimer(d)
		select {
		case <-timer.C:
		case <-s.r.Context().Done():
			timer.Stop()
			panic(stopStream{})
		}
	}
	if _, err := s.w.Write(frame); err != nil {
		panic(stopStream{})
	}
	if s.flush != nil {
		s.flush.Flush()
	}
	s.frames++
}
