package fscache

import (
	"context"
	"errors"
)

// TEMPORARY: replaced by the real implementation.

var errTODO = errors.New("fscache: not implemented yet")

type Cache struct{}

func New(p Policy) *Cache                        { return &Cache{} }
func Default() *Cache                            { return &Cache{} }
func PolicyFromEnv() Policy                      { return DefaultPolicy }
func (c *Cache) Policy() Policy                  { return DefaultPolicy }
func (c *Cache) Invalidate(path string)          {}
func (c *Cache) Clear()                          {}
func ResolveSearchPath(p string) (string, error) { return "", errTODO }
func Walk(ctx context.Context, root string, opts Options) ([]Entry, error) {
	return nil, errTODO
}
func (c *Cache) GetOrScan(ctx context.Context, root string, opts Options) (*Scan, error) {
	return nil, errTODO
}
func (c *Cache) ForceRescan(ctx context.Context, root string, opts Options, store bool) (*Scan, error) {
	return nil, errTODO
}
