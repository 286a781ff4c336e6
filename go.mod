module github.com/gopi-agent/gopi

go 1.26.0

require (
	github.com/boyter/gocodewalker v1.4.0
	golang.org/x/sys v0.49.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/danwakefield/fnmatch v0.0.0-20160403171240-cbb64ac3d964 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
