package agentsession

import (
	"github.com/gopi-agent/gopi/core/session"
)

// FastTier is the OpenAI service tier /fast turns on.
const FastTier = "priority"

// ServiceTier returns the OpenAI service tier sent with each request (""
// for none): the session's latest service_tier_change, else the
// serviceTier setting.
func (ms *ModelState) ServiceTier() string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.tier
}

// SetServiceTier changes the service tier from the next request on and
// records the change in the session ("" clears it).
func (ms *ModelState) SetServiceTier(tier string) error {
	ms.mu.Lock()
	if ms.tier == tier {
		ms.mu.Unlock()
		return nil
	}
	ms.tier = tier
	ms.mu.Unlock()
	_, err := ms.store().Record(session.ServiceTier(tier))
	return err
}

// FastMode reports whether fast mode (the priority tier) is on.
func (ms *ModelState) FastMode() bool { return ms.ServiceTier() == FastTier }

// SetFastMode turns fast mode on (the priority tier) or off (no tier).
func (ms *ModelState) SetFastMode(on bool) error {
	if on {
		return ms.SetServiceTier(FastTier)
	}
	return ms.SetServiceTier("")
}

// restoreTier takes the service tier a session's context records, or the
// serviceTier setting when it records none ("none" is no tier).
func (ms *ModelState) restoreTier(recorded, setting string) {
	tier := recorded
	if tier == "" && setting != "none" {
		tier = setting
	}
	ms.mu.Lock()
	ms.tier = tier
	ms.mu.Unlock()
}
