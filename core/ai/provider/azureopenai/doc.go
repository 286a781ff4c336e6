// Package azureopenai is the "azure-openai-responses" provider: the
// Responses API of an Azure OpenAI resource. The wire is OpenAI's
// Responses API (request building and event decoding come from
// openairesponses); what Azure adds is where requests go and how they
// authenticate:
//
//   - URL: <base>/responses?api-version=<version>. The base is the
//     resource's API root, https://<resource>.openai.azure.com/openai/v1
//     by default (the model registry derives it from AZURE_OPENAI_BASE_URL
//     or AZURE_OPENAI_RESOURCE_NAME, else the model's baseUrl); the
//     version is the model's compat "azureApiVersion", "v1" by default
//     (AZURE_OPENAI_API_VERSION).
//   - Deployment: the body's "model" is the deployment name, which is the
//     model's compat "azureDeployment" (AZURE_OPENAI_DEPLOYMENT_NAME_MAP,
//     "model=deployment,…", or models.yml) or else the model id. Azure's
//     404 DeploymentNotFound becomes a *DeploymentError naming the
//     deployment and how to map the model to one that exists.
//   - Credential: an API key is sent in the api-key header; a Microsoft
//     Entra ID access token (a JWT, IsEntraToken) as Authorization:
//     Bearer.
//
// The body is the Responses body of openairesponses.BuildPayload with the
// deployment as model, "include": ["reasoning.encrypted_content"] for
// every reasoning model, and, as omp does for GPT-5 models asked not to
// think, a developer message "# Juice: 0 !important". Stop reasons and
// usage are the Responses API's.
package azureopenai
