package agentsession

// closeTools ends what the session's tools use, in this order:
//
//  1. the services (registry.Services.Close: background jobs, then the
//     shell and every process it started), so that no tool or job runs
//     any more;
//  2. the caches, when the session built them (a child session's belong
//     to its parent, which outlives its children's jobs): nothing
//     searches any more, so the content cache's watches and the native
//     parse cache can go.
//
// Close calls it once the turn in progress has stopped; a failed New
// calls it for what it had built.
func (s *Session) closeTools() {
	if s.svc != nil {
		_ = s.svc.Close()
	}
	if s.ownsCaches {
		_ = s.caches.Close()
	}
}
