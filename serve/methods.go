package serve

import "net/http"

// postOnly answers GET (and HEAD), PUT, PATCH and DELETE on the API's POST
// paths with a JSON 405 naming the one allowed (the mux's own answer is a text 404 for
// GET, which reads as a missing endpoint).
func postOnly(mux *http.ServeMux, paths ...string) {
	for _, p := range paths {
		for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			mux.HandleFunc(m+" "+p, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Allow", http.MethodPost)
				writeErrors(w, http.StatusMethodNotAllowed, apiError{Message: r.Method + " " + p + ": the program is the body of a POST"})
			})
		}
	}
}
