package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestServeAcceptsWhatItSuggests: the profile engine's refusal of a
// program with locks suggests --ignore-sync, and the API takes it, as
// conc check does: the optimistic answer, with its note.
func TestServeAcceptsWhatItSuggests(t *testing.T) {
	src, err := os.ReadFile("../../examples/counter_locked.conc")
	require.NoError(t, err)
	h := playground(serveFlags{})
	w := postProgram(t, h, "/api/check", "engine=profile", string(src))
	require.Equal(t, http.StatusBadRequest, w.Code)
	require.Contains(t, apiErrors(t, w)[0].Message, "--ignore-sync")

	w = postProgram(t, h, "/api/check", "engine=profile&ignore-sync=true&name=counter_locked.conc", string(src))
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	o := conc("check", "--format", "json", "--engine", "profile", "--ignore-sync", "../../examples/counter_locked.conc")
	var cli map[string]any
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &cli))
	got := withoutMillis(t, w.Body.String())
	require.Equal(t, cli["verdict"], got["verdict"])
	require.Equal(t, cli["reason"], got["reason"])

	w = postProgram(t, h, "/api/check", "ignore-sync=perhaps", string(src))
	require.Equal(t, http.StatusBadRequest, w.Code)
	require.Contains(t, apiErrors(t, w)[0].Message, "ignore-sync")
}

// TestServeWrongMethod: a GET (or PUT) of a POST endpoint answers a JSON
// 405 that names the method to use, not a text 404.
func TestServeWrongMethod(t *testing.T) {
	h := playground(serveFlags{})
	for _, path := range []string{"/api/check", "/api/explain", "/api/timeline"} {
		for _, m := range []string{http.MethodGet, http.MethodPut} {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(m, path, nil))
			require.Equal(t, http.StatusMethodNotAllowed, w.Code, m+" "+path)
			require.Equal(t, "POST", w.Header().Get("Allow"), m+" "+path)
			require.Contains(t, w.Header().Get("Content-Type"), "application/json")
			require.Contains(t, apiErrors(t, w)[0].Message, "POST", m+" "+path)
		}
	}
}
