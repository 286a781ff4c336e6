// Package vertex is the "google-vertex" provider: Gemini on Google Cloud's
// Vertex AI. The body and the streamed chunks are the Gemini API's (built
// and decoded by core/ai/provider/google); what differs is where the
// request goes and how it is authorised.
//
// With an API key (Vertex AI express mode: GOOGLE_CLOUD_API_KEY, or a key
// resolved for the provider) the request is
//
//	POST https://aiplatform.googleapis.com/v1/publishers/google/models/{model}:streamGenerateContent?alt=sse
//
// with the key in x-goog-api-key. Otherwise the project and location of
// Settings (GOOGLE_CLOUD_PROJECT or GCLOUD_PROJECT, GOOGLE_CLOUD_LOCATION)
// pick the regional endpoint
//
//	POST https://{host}/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:streamGenerateContent?alt=sse
//
// where host is aiplatform.googleapis.com for the "global" location,
// aiplatform.{us|eu}.rep.googleapis.com for the multi-regions "us" and
// "eu", and {location}-aiplatform.googleapis.com for a region (the
// catalogue's base URL "https://{location}-aiplatform.googleapis.com" is
// that template; any other base URL is used as the host as it is, which is
// how tests point the provider at a local server). The request carries
// "Authorization: Bearer <token>" from application default credentials
// (adc.go: an authorized-user file from `gcloud auth application-default
// login`, a service-account key, or an impersonated service account,
// exchanged at Google's token endpoint and cached until five minutes
// before it expires) and the file's quota project in x-goog-user-project.
//
// The provider reads no environment: the model registry resolves the
// settings and the credentials file (core/ai/models/vertex.go) and builds
// the provider with them. The instance registered with core/ai has no
// settings and serves API-key requests only.
package vertex
