package agentsession

// AutoCompaction reports whether automatic compaction is on (the setting
// compaction.enabled, changed at run time by SetAutoCompaction) — the
// flag get_state reports.
func (s *Session) AutoCompaction() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.autoCompaction != nil {
		return *s.autoCompaction
	}
	return s.cfg.Settings.Compaction().Enabled
}

// SetAutoCompaction turns automatic compaction on or off for this session.
func (s *Session) SetAutoCompaction(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.autoCompaction = &on
}

// SetAutoRetry turns automatic retries on or off.
func (s *Session) SetAutoRetry(on bool) {
	r := s.agent.Retry()
	r.Enabled = on
	s.agent.SetRetry(r)
}
