package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// CurrentVersion is the session format version this package writes.
const CurrentVersion = 3

// ErrNewerVersion is returned for a session file whose version is newer
// than CurrentVersion. Such a file is never rewritten.
var ErrNewerVersion = errors.New("session file is from a newer version")

// ErrInvalidHeader is returned when the first line of a non-empty file is
// not a session header. The file is left alone.
var ErrInvalidHeader = errors.New("not a session file: the first line is not a session header")

// Header is the first line of a session file.
type Header struct {
	Version       int    // format version (1 when the file has none)
	ID            string // session id: a UUIDv7 for sessions this package creates
	Timestamp     string // creation time, ISO 8601 UTC with milliseconds
	Cwd           string // working directory of the session
	Title         string // display name; "" when unset
	TitleSource   string // who set Title: "auto" or "user"; "" when unset
	ParentSession string // lineage: the id or path of the session this one came from; "" when none
}

// parseHeader reads a header line. A line that is not a JSON object with
// type "session" and a string id is ErrInvalidHeader.
func parseHeader(line []byte) (Header, error) {
	var typ, id string
	var version []byte
	ok := true
	err := eachMember(line, func(m member) bool {
		switch {
		case m.is("type"):
			typ, _ = stringValue(m.Value)
		case m.is("id"):
			id, ok = stringValue(m.Value)
		case m.is("version"):
			version = m.Value
		}
		return true
	})
	if err != nil || typ != "session" || !ok || id == "" {
		return Header{}, ErrInvalidHeader
	}
	var v struct {
		Cwd           any `json:"cwd"`
		Timestamp     any `json:"timestamp"`
		Title         any `json:"title"`
		TitleSource   any `json:"titleSource"`
		ParentSession any `json:"parentSession"`
	}
	json.Unmarshal(line, &v) // fields of other types are ignored below
	str := func(x any) string { s, _ := x.(string); return s }
	h := Header{Version: 1, ID: id, Cwd: str(v.Cwd), Timestamp: str(v.Timestamp), Title: str(v.Title),
		TitleSource: str(v.TitleSource), ParentSession: str(v.ParentSession)}
	if version != nil && string(version) != "null" {
		f, err := strconv.ParseFloat(string(version), 64)
		if err != nil {
			return Header{}, fmt.Errorf("%w: version %s is not a number", ErrInvalidHeader, version)
		}
		if f > CurrentVersion {
			return h, fmt.Errorf("%w: version %s, this gopi reads up to version %d; update gopi to open it", ErrNewerVersion, version, CurrentVersion)
		}
		h.Version = int(math.Floor(f))
	}
	return h, nil
}

// MarshalJSON writes the header as it stands in a session file (see
// encode), so that printing a Header (`gopi --mode json`'s first line)
// gives omp's header object rather than Go field names.
func (h Header) MarshalJSON() ([]byte, error) { return h.encode(), nil }

// encode returns a new header line in omp's member order (type, version,
// id, timestamp, cwd, parentSession; a title set later goes last, where
// omp's rename puts it).
func (h Header) encode() []byte {
	b := []byte(`{"type":"session","version":`)
	b = strconv.AppendInt(b, int64(h.Version), 10)
	b = append(b, `,"id":`...)
	b = appendQuoted(b, h.ID)
	b = append(b, `,"timestamp":`...)
	b = appendQuoted(b, h.Timestamp)
	b = append(b, `,"cwd":`...)
	b = appendQuoted(b, h.Cwd)
	if h.ParentSession != "" {
		b = append(b, `,"parentSession":`...)
		b = appendQuoted(b, h.ParentSession)
	}
	if h.Title != "" {
		b = append(b, `,"title":`...)
		b = appendQuoted(b, h.Title)
	}
	if h.TitleSource != "" {
		b = append(b, `,"titleSource":`...)
		b = appendQuoted(b, h.TitleSource)
	}
	return append(b, '}')
}
