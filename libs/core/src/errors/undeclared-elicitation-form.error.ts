/** A tool asked for an elicitation form its @Tool does not list: a programming error, reported on the call. */
export class UndeclaredElicitationFormError extends Error {
  constructor(toolset: string, tool: string, form: string) {
    super(
      `The tool '${tool}' of toolset '${toolset}' asked the user to fill '${form}', which it does not declare. ` +
        `Add it to the tool's options, @Tool({ ..., elicits: [${form}] }), so the startup gate checks it.`,
    );
    this.name = 'UndeclaredElicitationFormError';
  }
}
