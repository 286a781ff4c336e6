// Package share publishes an exported session as a secret GitHub gist
// through the GitHub CLI, as omp's /share does: `gh auth status` must
// succeed, `gh gist create --public=false <file>` prints the gist's URL,
// and the page is viewed through gistpreview.github.io (a gist shows HTML
// as source). gh does the network and the credentials; this package only
// runs it, each call under a timeout and in a process group that ends
// with gopi (internal/childproc).
package share
