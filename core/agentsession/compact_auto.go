package agentsession

// Auto reports whether automatic compaction is on (the setting
// compaction.enabled, changed at run time by SetAuto) — the
// flag get_state reports.
func (c *Compactor) Auto() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.autoOverride != nil {
		return *c.autoOverride
	}
	return c.cfg.Settings.Compaction().Enabled
}

// SetAuto turns automatic compaction on or off for this session.
func (c *Compactor) SetAuto(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.autoOverride = &on
}
