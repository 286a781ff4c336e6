package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"time"
)

// Entry is one stored credential as status shows it: never the secret,
// only a short fingerprint of it.
type Entry struct {
	Provider    string
	Kind        Kind
	Source      string    // SourceGopi or SourceOMP
	Path        string    // the agent.db it is in
	Expires     time.Time // the access token's expiry; zero for keys and tokens without one
	Fingerprint string    // Fingerprint of the key or refresh token
}

// Fingerprint is a short, stable name for a secret that does not reveal
// it: the first 8 hex digits of its SHA-256.
func Fingerprint(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:4])
}

// Status lists the active credentials of every source, by source, then
// provider, then age. An unusable database is the error, with the entries
// of the sources before it.
func (s *Store) Status(ctx context.Context) ([]Entry, error) {
	var out []Entry
	for _, src := range s.sources {
		db, err := src.open(ctx, false)
		if err != nil {
			return out, err
		}
		if db == nil {
			continue
		}
		rows, err := db.query(ctx, "", false)
		db.Close()
		if err != nil {
			return out, err
		}
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].provider < rows[j].provider })
		for _, r := range rows {
			e := Entry{Provider: r.provider, Kind: r.kind, Source: src.name, Path: src.path, Fingerprint: Fingerprint(r.cred.secret())}
			if r.kind == KindOAuth && r.cred.OAuth.Expires > 0 {
				e.Expires = time.UnixMilli(r.cred.OAuth.Expires)
			}
			out = append(out, e)
		}
	}
	return out, nil
}
