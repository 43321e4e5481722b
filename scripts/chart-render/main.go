// chart-render renders a Helm chart the way `helm template` does, for machines without helm (it is
// not packaged for Debian, and its releases cannot be downloaded here). It runs the templates with
// Go's text/template and sprig, the engine and function library Helm itself uses, plus the Helm
// functions this chart calls: include, required, fail, toYaml, fromYaml, .Files.Get. A function it
// lacks fails the parse, so it never renders differently in silence. Like `helm lint --strict`, a
// missing map key is an error.
//
//	chart-render CHART_DIR [VALUES_FILE ...] > manifests.yaml
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"sigs.k8s.io/yaml"
)

type files struct{ dir string }

// Get returns a file of the chart, or "" as Helm does when it does not exist.
func (f files) Get(name string) string {
	content, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		return ""
	}
	return string(content)
}

// coalesce merges values files over the chart's values.yaml as Helm does: maps key by key, anything
// else replaced.
func coalesce(base, override map[string]interface{}) map[string]interface{} {
	for key, value := range override {
		if overrideMap, ok := value.(map[string]interface{}); ok {
			if baseMap, ok := base[key].(map[string]interface{}); ok {
				base[key] = coalesce(baseMap, overrideMap)
				continue
			}
		}
		base[key] = value
	}
	return base
}

func readYaml(path string) (map[string]interface{}, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	parsed := map[string]interface{}{}
	return parsed, yaml.Unmarshal(content, &parsed)
}

func render(chart string, valueFiles []string) (string, error) {
	values, err := readYaml(filepath.Join(chart, "values.yaml"))
	if err != nil {
		return "", err
	}
	for _, file := range valueFiles {
		override, err := readYaml(file)
		if err != nil {
			return "", err
		}
		values = coalesce(values, override)
	}
	metadata, err := readYaml(filepath.Join(chart, "Chart.yaml"))
	if err != nil {
		return "", err
	}
	name := fmt.Sprint(metadata["name"])

	templates := template.New(name).Option("missingkey=error")
	functions := sprig.TxtFuncMap()
	// Helm removes these: a chart must not read the environment of whoever renders it.
	delete(functions, "env")
	delete(functions, "expandenv")
	functions["toYaml"] = func(value interface{}) string {
		out, err := yaml.Marshal(value)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(string(out), "\n")
	}
	functions["fromYaml"] = func(text string) map[string]interface{} {
		parsed := map[string]interface{}{}
		if err := yaml.Unmarshal([]byte(text), &parsed); err != nil {
			parsed["Error"] = err.Error()
		}
		return parsed
	}
	functions["required"] = func(message string, value interface{}) (interface{}, error) {
		if value == nil || value == "" {
			return value, errors.New(message)
		}
		return value, nil
	}
	functions["fail"] = func(message string) (string, error) { return "", errors.New(message) }
	functions["include"] = func(template string, data interface{}) (string, error) {
		var out bytes.Buffer
		err := templates.ExecuteTemplate(&out, template, data)
		return out.String(), err
	}
	templates.Funcs(functions)

	paths, err := filepath.Glob(filepath.Join(chart, "templates", "*"))
	if err != nil {
		return "", err
	}
	sort.Strings(paths)
	basePath := filepath.Join(name, "templates")
	for _, path := range paths {
		content, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		if _, err := templates.New(filepath.Join(basePath, filepath.Base(path))).Parse(string(content)); err != nil {
			return "", err
		}
	}
	top := map[string]interface{}{
		"Values":   values,
		"Release":  map[string]interface{}{"Name": "pos", "Namespace": "pos", "Service": "Helm", "IsInstall": true},
		"Chart":    map[string]interface{}{"Name": name, "Version": metadata["version"], "AppVersion": metadata["appVersion"]},
		"Files":    files{chart},
		"Template": map[string]interface{}{"BasePath": basePath},
	}
	var manifests strings.Builder
	for _, path := range paths {
		file := filepath.Base(path)
		if strings.HasPrefix(file, "_") {
			continue
		}
		var out bytes.Buffer
		if err := templates.ExecuteTemplate(&out, filepath.Join(basePath, file), top); err != nil {
			return "", err
		}
		// NOTES.txt must render, but is not a manifest.
		if file != "NOTES.txt" {
			fmt.Fprintf(&manifests, "---\n# Source: %s\n%s\n", filepath.Join(basePath, file), out.String())
		}
	}
	return manifests.String(), nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: chart-render CHART_DIR [VALUES_FILE ...]")
		os.Exit(2)
	}
	manifests, err := render(os.Args[1], os.Args[2:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(manifests)
}
